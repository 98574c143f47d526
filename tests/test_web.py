"""The web table's server (canasta/web, docs/web.md), through Starlette's test client:
a whole hand played through the API to its score, every response checked to hold nothing the
human seat cannot see; a refused move names its rule (422); bad requests get a one-line 4xx;
undo; two sessions apart; a restarted server resumes a saved table; the record downloaded
replays to the same score (sim.record)."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from canasta.web.app import create_app
from canasta.web.table import MoveRefused, Table, move_for
from sim import encoding as E
from sim import record as R
from sim.errors import CanastaError
from sim.play.table import TableView
from tests.web_client import BASE, BOT, JSON, TestClient, table_of


def _client(tmp_path=None, **kw):
    return TestClient(create_app(state_dir=tmp_path, warm=False, **kw), base_url=BASE)


def _at(client, body: dict | None = None) -> dict:
    """A change's body with the table's move number (a stale one is refused, 409)."""
    return {**(body or {}), "move_no": table_of(client).move_no}


def counterfactual(game, seat: int):
    """A copy of ``game`` that differs only in what ``seat`` cannot see: two other seats of
    the same hand size swap hands, the stock is reversed, other seats' drawn cards in the
    event log are replaced."""
    g = copy.deepcopy(game)
    st = g.state
    others = [p for p in range(E.N_PLAYERS) if p != seat]
    w = TableView.writable(st)
    hands = w.hands
    sizes = hands.sum(axis=1)
    for a in others:
        for b in others:
            if a < b and sizes[a] == sizes[b] and not np.array_equal(hands[a], hands[b]):
                hands[[a, b]] = hands[[b, a]]
                break
        else:
            continue
        break
    w.stock[: w.stock_n] = w.stock_cards[::-1].copy()
    k = int(g.log[0])
    ev = g.log[1 : 1 + k * E.EVENT_WIDTH].reshape(k, E.EVENT_WIDTH)
    for row in ev:
        if row[0] in (E.EV_DRAW, E.EV_REPLACE, E.EV_BONUS) and row[1] != seat:
            row[3] = (row[3] + 37) % (E.N_CARDS - 2)
    return g


def _check_hidden(client, body: dict) -> None:
    """Nothing in a response depends on a card the seat cannot see (while the hand runs)."""
    assert "deck" not in json.dumps(body)
    t = table_of(client)
    if body.get("over"):
        return
    g = t.game
    assert t.view(g) == t.view(counterfactual(g, t.seat))
    hand = g.view(t.seat).hand
    assert sorted(body["hand"]) == sorted(
        E.KIND_NAMES[k] for k in range(E.N_KINDS) for _ in range(int(hand[k]))
    )


def test_counterfactual_detects_a_leak():
    """The check above can fail: a view showing other seats' hands or the stock differs."""
    t = Table(seed=9, partner=BOT, opponents=BOT)
    g = t.game

    def leak(game):
        t = TableView(game.state)
        return [*t.hands.ravel(), *t.melds.ravel(), *t.threes.ravel(), *t.stock_cards]

    assert leak(g) != leak(counterfactual(g, t.seat))
    assert t.view(g) == t.view(counterfactual(g, t.seat))


def test_game_mode_chains_hands():
    c = _client()
    body = c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 4, "mode": "game"})
    body = body.json()
    while not body["over"]:
        move = move_for(table_of(c).game.policy_action(BOT))
        body = c.post("/api/move", json=_at(c, move)).json()
    totals = body["result"]["totals"]
    assert body["result"]["next_hand"] == (max(totals) < 8500)
    nxt = c.post("/api/next", json=_at(c)).json()
    assert nxt["hand_no"] == 2 and not nxt["over"]
    assert [nxt["teams"][0]["score"], nxt["teams"][1]["score"]] == totals
    assert table_of(c).game.first_player == 1  # DEAL-1: the deal rotates
    rec = json.loads(c.get("/api/record").text)
    assert rec["kind"] == "game" and rec["hands"][1]["scores"] == totals
    assert rec["hands"][1]["deck"] is None  # the running hand's deck stays on the server
    rec["hands"] = rec["hands"][:1]
    assert R.replay(rec)[0].scores() == table_of(c).hands[0].scores()


def test_whole_hand_through_the_api_hides_cards_and_scores(tmp_path):
    c = _client(tmp_path)
    r = c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 21})
    assert r.status_code == 200
    body = r.json()
    _check_hidden(c, body)
    assert body["ruleset"]["name"].startswith("tournament")
    for _ in range(400):
        if body["over"]:
            break
        assert body["your_turn"]
        t = table_of(c)
        a = t.game.policy_action(BOT)
        r = c.post("/api/move", json=_at(c, move_for(a)))
        assert r.status_code == 200, r.json()
        body = r.json()
        _check_hidden(c, body)
        rec = c.get("/api/record")
        assert rec.status_code == 200
        if not body["over"]:
            assert json.loads(rec.text)["hands"][0]["deck"] is None
    assert body["over"]
    res = body["result"]
    assert res["items"][-1]["item"] == "total"
    totals = {it["item"]: (it["team0"], it["team1"]) for it in res["items"]}
    g = table_of(c).game
    assert totals["total"] == (g.scores()[0]["total"], g.scores()[1]["total"])
    # the record, downloaded, replays to the same score
    rec = c.get("/api/record")
    assert "attachment" in rec.headers["content-disposition"]
    (back,) = R.replay(rec.text)
    assert back.scores() == g.scores()
    frames = c.post("/api/replay", content=rec.text, headers=JSON).json()
    assert len(frames["hands"][0]["frames"]) == len(g.actions) + 1


def test_refused_move_names_the_rule_and_changes_nothing():
    c = _client()
    body = c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 3}).json()
    assert body["phase"] == "play"  # the first draw of an empty pile is forced
    r = c.post("/api/move", json=_at(c, {"move": "pile"}))
    assert r.status_code == 422
    assert r.json()["rule"] == "TURN-1" and E.explain(E.R_WRONG_PHASE) in r.json()["error"]
    assert c.get("/api/state").json() == body


@pytest.mark.parametrize(
    "path, payload, status, words",
    [
        ("/api/move", b"{x", 400, "not JSON"),
        ("/api/move", {"move": "fly"}, 400, "unknown move"),
        ("/api/move", {"move": "discard", "cards": ["Z"]}, 400, "bad card"),
        ("/api/move", {"move": "discard", "cards": 5}, 400, "cards"),
        ("/api/move", {"move": ["draw"]}, 400, "move"),
        ("/api/move", {"move": {"a": 1}}, 400, "move"),
        ("/api/move", b"[1, 2]", 400, "move number"),
        ("/api/move", b"x" * (300 * 1024), 413, "KiB"),
        ("/api/nowhere", b"{}", 404, "Not Found"),
    ],
)
def test_bad_requests_one_line_4xx(path, payload, status, words):
    c = _client()
    c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 3})
    if isinstance(payload, dict):
        payload = json.dumps(_at(c, payload)).encode()
    r = c.post(path, content=payload, headers=JSON)
    assert r.status_code == status
    err = r.json()["error"]
    assert words in err and "\n" not in err and "Traceback" not in err


def test_new_table_bad_settings():
    c = _client()
    assert c.get("/api/state").status_code == 404
    for body, words in [
        ({"partner": "nobody"}, "nobody"),
        ({"mode": "match"}, "mode"),
        ({"rules": "club rules"}, "unknown ruleset"),
        ({"seed": -1}, "seed"),
        ({"rules_toml": "rule_of_five = 3"}, "rule_of_five"),
        ({"rules_toml": "[[["}, "TOML"),
    ]:
        r = c.post("/api/new", json=body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.json())


def test_uploaded_rules_are_played_and_shown():
    c = _client()
    r = c.post(
        "/api/new",
        json={
            "partner": BOT,
            "opponents": BOT,
            "rules_toml": "rule_of_five = false",
            "rules_name": "club.toml",
        },
    )
    assert r.status_code == 200
    assert r.json()["ruleset"]["name"] == "club.toml (uploaded)"
    assert r.json()["ruleset"]["rules"]["rule_of_five"] is False
    assert table_of(c).game.ruleset.rule_of_five is False


def test_undo_returns_to_the_previous_decision():
    """Undo of a meld (no card left the stock since): the same hand, log and turn as before."""
    for seed in range(30):
        c = _client()
        c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": seed})
        for _ in range(200):
            t = table_of(c)
            if t.game.is_over:
                break
            a = t.game.policy_action(BOT)
            before = c.get("/api/state").json()
            after = c.post("/api/move", json=_at(c, move_for(a))).json()
            if int(E.ACTION_TABLE[a, E.AC_TYPE]) == E.AT_MELD and not after["over"]:
                break
        else:
            continue
        if not after["can_undo"]:
            continue
        back = c.post("/api/undo", json=_at(c)).json()
        assert back["hand"] == before["hand"] and back["turn"] == before["turn"]
        assert back["log"] == before["log"]
        # the same move again: the bots reply the same way (deterministic from the position)
        again = c.post("/api/move", json=_at(c, move_for(a))).json()
        assert {k: v for k, v in again.items() if k != "move_no"} == {
            k: v for k, v in after.items() if k != "move_no"
        }
        return
    pytest.fail("no meld to undo in 30 hands")


def test_two_sessions_never_share_a_table():
    app = create_app(warm=False)
    a, b = TestClient(app, base_url=BASE), TestClient(app, base_url=BASE)
    va = a.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 1}).json()
    vb = b.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 2}).json()
    assert a.cookies["canasta_table"] != b.cookies["canasta_table"]
    assert a.get("/api/state").json()["hand"] == va["hand"]
    assert b.get("/api/state").json()["hand"] == vb["hand"]
    stranger = TestClient(app, base_url=BASE)
    assert stranger.get("/api/state").status_code == 404
    stranger.cookies.set("canasta_table", "../" + a.cookies["canasta_table"])
    assert stranger.get("/api/state").status_code == 404


def test_restart_resumes_a_saved_table(tmp_path):
    c = _client(tmp_path)
    c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 8, "mode": "game"})
    for _ in range(3):
        t = table_of(c)
        body = c.post("/api/move", json=_at(c, move_for(t.game.policy_action(BOT)))).json()
    tid = c.cookies["canasta_table"]
    fresh = _client(tmp_path)  # a new server over the same state directory
    fresh.cookies.set("canasta_table", tid)
    fresh.table_key = c.table_key  # the page's storage outlives the server
    resumed = fresh.get("/api/state")
    assert resumed.status_code == 200
    assert resumed.json() == body
    assert resumed.json()["table"]["mode"] == "game"


def _choice(label, mean, diff, lo, hi, n=64, **rates):
    from analysis.advise import Choice

    return Choice(label, [], None, mean, mean - 50, mean + 50, diff, lo, hi, n, rates)


def test_why_is_built_from_the_measurement():
    from analysis.advise import Advice, why

    best = _choice("discard 4", 900.0, 0.0, 0.0, 0.0, sevens_completion=0.8, went_out=0.3)
    second = _choice(
        "discard 7", 700.0, -200.0, -320.0, -80.0, sevens_completion=0.5, went_out=0.32
    )
    text = why(Advice("play", [best, second]))
    assert text.startswith("Discard 4 scores 200 more points") and "+80 to +320" in text
    assert "completes its sevens in 80%" in text and "50% after discard 7" in text
    # an interval over 0: said to be about the same, never a lead
    close = _choice("discard 7", 880.0, -20.0, -150.0, 110.0)
    assert "about the same" in why(Advice("play", [best, close]))
    # against the choice a player made
    made = _choice("discard K", 500.0, -400.0, -520.0, -280.0, sevens_completion=0.1)
    assert "than discard K" in why(Advice("play", [best, second, made]), made)


def test_review_is_the_seats_review_kept_per_hand():
    """The table's review is the seat's (``analysis.review`` through ``review_hand``): a row
    per decision of the human's with a choice, refused while the hand runs, computed once per
    finished hand."""
    from canasta._seat_review import review
    from canasta.review import decisions

    t = Table(seed=6, partner=BOT, opponents=BOT)
    with pytest.raises(CanastaError, match="not over"):
        review(t)
    while not t.game.is_over:
        t.move(move_for(t.game.policy_action("random")))
    rev = review(t, budget=None, n=4)  # no time limit: the same rows on any machine
    items = decisions([t.game], [t.seat])
    assert len(rev.decisions) == sum(not d.forced for d in items) > 0
    assert set(rev.decisions["seat"]) == {t.seat} and set(rev.decisions["hand"]) == {1}
    assert (rev.decisions["made"] != "").mean() > 0.5
    assert review(t) is rev  # computed once per finished hand
    with pytest.raises(CanastaError, match="no hand 2"):
        review(t, 2)


def test_canasta_serve_starts_and_prints_its_address(tmp_path):
    """``canasta serve`` as a user starts it: one line with the address, then the page."""
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta", "serve", "--port", str(port), "--state", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "<title>Canasta table</title>" in page and "http" not in page.split("<body>")[1]
    finally:
        proc.terminate()
        proc.wait(10)


def test_canasta_serve_bad_flags_one_line(capsys):
    from canasta import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err
    assert main(["serve", "--bot", "nobody"]) == 2
    assert main(["serve", "--rules", "/no/such.toml"]) == 2
    assert capsys.readouterr().out == ""


def test_rules_file_offered_first_and_played(tmp_path):
    """``canasta serve --rules FILE``: the file's ruleset is the page's default, and shown."""
    path = tmp_path / "club.toml"
    path.write_text("max_wilds_mixed = 3\n")
    c = _client(rules_file=str(path))
    opts = c.get("/api/options").json()
    assert opts["default_rules"] == "club.toml (--rules)"
    assert opts["rulesets"]["club.toml (--rules)"]["max_wilds_mixed"] == 3
    body = c.post("/api/new", json={"partner": BOT, "opponents": BOT}).json()
    assert body["ruleset"]["name"] == "club.toml (--rules)"
    assert table_of(c).game.ruleset.max_wilds_mixed == 3


def test_undo_takes_back_a_whole_meld_command():
    """A click that melds two ranks is two engine actions and one decision: undo takes both."""
    for seed in range(40):
        t = Table(seed=seed, partner=BOT, opponents=BOT)
        while not t.game.is_over:
            g = t.game
            if g.phase == "play":
                hand = g.view(t.seat).hand
                ranks = [k for k in range(E.N_KINDS) if E.IS_NATURAL[k] and hand[k] >= 3]
                if len(ranks) >= 2:
                    cards = [E.KIND_NAMES[k] for k in ranks[:2] for _ in range(3)]
                    before = (list(g.actions), t.view())
                    try:
                        t.move({"move": "meld", "cards": cards})
                    except MoveRefused:  # e.g. short of the opening minimum (OPEN-1)
                        pass
                    else:
                        assert len(t.game.actions) == len(before[0]) + 2
                        t.undo()
                        assert t.game.actions == before[0]
                        after = t.view()
                        assert after.pop("move_no") == before[1].pop("move_no") + 2
                        assert after == before[1]
                        return
            t.move(move_for(g.policy_action(BOT)))
    pytest.fail("no two-rank meld found in 40 hands")


def test_a_partial_opening_shows_its_points_and_the_way_on():
    """The player's side of OPEN-1: after a meld short of the minimum, the view shows the
    points so far against it, and a discard is refused naming them, the remedy and the moves
    allowed (a meld among them: the engine accepts only a meld after which the opening can
    still be completed)."""
    for seed in range(200):
        t = Table(seed=seed, partner=BOT, opponents=BOT)
        g = t.game
        if g.phase != "play" or g.observation(t.seat)[E.OB_OPENED]:
            continue
        for a in g.legal_actions():
            if int(E.ACTION_TABLE[a, E.AC_TYPE]) != E.AT_MELD:
                continue
            trial = copy.deepcopy(t)
            trial.hands[-1] = copy.deepcopy(g)
            trial.move(move_for(a))
            prog = trial.view()["opening"]
            if prog is None or prog["so_far"] >= prog["min"]:
                continue
            assert 0 < prog["so_far"] < prog["min"] == trial.view()["open_min"]
            hand = trial.view()["hand"]
            with pytest.raises(MoveRefused) as exc:
                trial.move({"move": "discard", "cards": [hand[-1]]})
            text = str(exc.value)
            assert exc.value.rule.startswith("OPEN")
            assert f"count {prog['so_far']} of the {prog['min']} points" in text
            assert "meld" in exc.value.allowed  # the way on: more melds this turn
            return
    pytest.fail("no partial opening found in 200 deals")


def test_hint_merges_equal_plays_and_never_shows_minus_zero():
    from analysis.advise import Choice
    from canasta.web.moves import merged_choices

    def ch(label, mean, diff, lo, hi):
        return Choice(label, [], None, mean, mean - 50, mean + 50, diff, lo, hi, 64, {})

    best = ch("discard 7S", 500.0, 0.0, 0.0, 0.0)
    same_suitless = ch("discard 7H", 500.0, 0.0, 0.0, 0.0)  # the same play, another suit
    same_deals = ch("discard 8", 500.0, 0.0, 0.0, 0.0)  # equal on every paired deal
    close = ch("discard 9", 499.98, -0.02, -30.0, 30.0)  # rounds to 0: not merged, no "-0"
    worse = ch("discard K", 400.0, -100.0, -150.0, -50.0)
    out = merged_choices([best, same_suitless, same_deals, close, worse], 5)
    assert [c["label"] for c in out] == ["discard 7, or discard 8", "discard 9", "discard K"]
    assert out[0]["same"] == ["discard 8"]
    assert all(not str(c["diff"]).startswith("-0") for c in out)
    assert merged_choices([best, close, worse], 1)[0]["label"] == "discard 7"


def test_log_and_review_share_turn_numbers():
    """The log numbers each line by the engine's turn, the one the review cites; the card
    drawn from the stock is named for the page to mark while the turn is played."""
    t = Table(seed=6, partner=BOT, opponents=BOT)
    saw_drawn = False
    while not t.game.is_over:
        a = t.game.policy_action("random")
        t.move(move_for(a))
        v = t.view()
        if a == E.A_DRAW and not v["over"] and v["phase"] == "play":
            drawn = v["drawn"]
            saw_drawn = saw_drawn or drawn is not None
            assert drawn is None or drawn in v["hand"]
        turns = [x["turn"] for x in v["log"]]
        assert turns == sorted(turns) and (not turns or turns[-1] <= v["turn"])
    assert saw_drawn
    full = {x["turn"] for x in t.view()["log"]} | set(t.turns)
    from canasta._seat_review import review

    turns = review(t, budget=None, n=4).decisions["turn"].tolist()
    assert turns and all(turn in full for turn in turns)
    mine = {t.turns[i] for i, (_, p, _, _) in enumerate(t.game.events()) if p == t.seat}
    assert all(turn in mine for turn in turns)


def test_warm_up_reports_progress_until_ready():
    """The page's progress line: /api/ready counts the warm-up's four steps to ready."""
    import time

    app = create_app(warm=True, default_bot=BOT)
    c = TestClient(app, base_url=BASE)
    seen = []
    for _ in range(1200):
        r = c.get("/api/ready").json()
        seen.append(r["step"])
        if r["ready"]:
            break
        assert r["doing"] and 0 <= r["step"] < r["of"] == 4
        time.sleep(0.1)
    assert r["ready"] and r["step"] == 4 and seen == sorted(seen)
    assert create_app(warm=False).state.warmup.json()["ready"]
