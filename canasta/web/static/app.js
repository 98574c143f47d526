// The canasta table page: talks to the JSON API of canasta serve (docs/web.md). No framework.
"use strict";
const $ = (id) => document.getElementById(id);
let view = null;          // the last table view from the server
let selected = [];        // indices into view.hand
let busy = false;
let answered = 0;         // answers drawn so far (document.body.dataset.answered: for tests)
function drawn() { document.body.dataset.answered = String(++answered); }

async function api(path, body) {
  const opts = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = {error: "the server sent no JSON (" + r.status + ")"}; }
  if (!r.ok) { const err = new Error(data.error || ("HTTP " + r.status)); err.rule = data.rule; err.status = r.status; throw err; }
  return data;
}

function say(text, bad) {
  const m = $("message");
  m.textContent = text || "";
  m.className = text ? (bad ? "bad" : "ok") : "";
}

const WILD = new Set(["2", "JK"]);
function cardEl(name, extra) {
  const d = document.createElement("span");
  d.className = "card" + (WILD.has(name) ? " wild" : "") + (name === "3r" ? " red" : "") + (extra ? " " + extra : "");
  d.textContent = name === "3r" ? "3♥" : name === "3b" ? "3♠" : name === "JK" ? "JK" : name;
  d.title = name === "JK" ? "joker (wild)" : name === "2" ? "two (wild)" : name === "3r" ? "red three" : name === "3b" ? "black three" : name;
  return d;
}

function meldsEl(box, melds, clickable) {
  box.innerHTML = "";
  if (!melds.length) { box.textContent = "no melds yet"; return; }
  for (const m of melds) {
    const d = document.createElement("div");
    d.className = "meld" + (m.canasta ? " canasta" : "");
    d.dataset.rank = m.rank;
    const tag = document.createElement("span");
    tag.className = "tag";
    const n = m.cards.length;
    tag.textContent = (m.rank === "wild" ? "wild meld" : m.rank + "s") + " · " + n + (m.canasta ? (m.natural ? " · natural canasta" : " · canasta") : " of 7");
    d.appendChild(tag);
    for (const c of m.cards) d.appendChild(cardEl(c));
    if (clickable) d.onclick = () => move("meld", {target: m.rank});
    box.appendChild(d);
  }
}

function statusText(v) {
  if (v.over) return "The hand is over.";
  if (!v.your_turn) return (v.players[v.to_act] || "A bot") + " is playing…";
  if (v.phase === "threes") return "Your turn: lay down your threes (or keep one toward a Straight).";
  if (v.phase === "draw") return "Your turn: draw from the stock, or take the pile.";
  return "Meld if you like, then discard one card to end your turn.";
}

function render(v) {
  view = v;
  selected = [];
  $("setup").hidden = true;
  $("table").hidden = false;
  const [us, them] = v.teams;
  const tot = v.over ? [v.result.totals[v.result.your_team], v.result.totals[1 - v.result.your_team]] : [us.score, them.score];
  $("scores").textContent = (v.over ? "After this hand: " : "") + `Your team ${tot[0].toLocaleString()} · Opponents ${tot[1].toLocaleString()}` + (v.table.mode === "game" ? ` · hand ${v.hand_no} · game to ${v.ruleset.rules.target.toLocaleString()}` : " · one hand");
  $("rules-shown").textContent = "Rules: " + v.ruleset.name + " — rule of five " + (v.ruleset.rules.rule_of_five ? "on" : "off") + ", up to " + v.ruleset.rules.max_wilds_mixed + " wilds in a mixed meld, special hands " + v.ruleset.rules.special_hands;
  const hs = v.hand_sizes;
  $("them-seats").textContent = `— ${v.players[them.seats[0]]}: ${hs[them.seats[0]]} cards, ${v.players[them.seats[1]]}: ${hs[them.seats[1]]} cards` + (them.opened ? "" : " · not opened yet");
  $("us-seats").textContent = `— ${v.players[us.seats[1]]}: ${hs[us.seats[1]]} cards` + (us.opened ? "" : ` · not opened yet: your first meld needs ${v.open_min} points`);
  meldsEl($("them-melds"), them.melds, false);
  meldsEl($("us-melds"), us.melds, true);
  for (const [box, t] of [[$("them-melds"), them], [$("us-melds"), us]]) {
    const th = document.createElement("div");
    th.className = "threes";
    th.textContent = `Threes laid: ${t.red_threes} red, ${t.black_threes} black`;
    box.appendChild(th);
  }
  $("stock-n").textContent = v.stock;
  $("pile-top").replaceChildren(v.pile_top ? cardEl(v.pile_top) : Object.assign(document.createElement("span"), {className: "card empty", textContent: "empty"}));
  $("pile-n").textContent = `(${v.pile_size} card${v.pile_size === 1 ? "" : "s"})`;
  const st = $("status");
  st.textContent = statusText(v);
  st.className = v.your_turn ? "you" : "";
  const recent = v.recent;
  $("recent").textContent = recent.length ? (v.can_undo ? "Since your last move: " : "So far: ") + recent.join(" · ") : "";
  $("hand-n").textContent = `(${v.hand.length} cards)`;
  const hand = $("hand");
  hand.innerHTML = "";
  v.hand.forEach((c, i) => {
    const d = cardEl(c);
    d.dataset.i = i;
    d.dataset.card = c;
    d.onclick = () => { const k = selected.indexOf(i); if (k >= 0) selected.splice(k, 1); else selected.push(i); d.classList.toggle("sel"); };
    hand.appendChild(d);
  });
  $("aside").textContent = v.aside ? "The pile's rest, yours once your opening meld stands: " + v.aside.join(" ") : "";
  const ph = v.your_turn ? v.phase : "";
  const en = (id, on) => { $(id).disabled = !on || busy; $(id).hidden = false; };
  en("b-draw", ph === "draw"); en("b-pile", ph === "draw");
  for (const id of ["b-meld", "b-discard", "b-out", "b-declare"]) en(id, ph === "play");
  for (const [id, m] of [["b-lay", "lay"], ["b-keep-red", "keep_red"], ["b-keep-black", "keep_black"]]) {
    const legal = ph === "threes" && v.moves.includes(m);
    en(id, legal); $(id).hidden = !legal;
  }
  en("b-hint", ph === "draw" || ph === "play");
  en("b-undo", v.can_undo);
  const log = $("log");
  log.innerHTML = "";
  for (const line of v.log) { const li = document.createElement("li"); li.textContent = line; log.appendChild(li); }
  log.scrollTop = log.scrollHeight;
  $("end").hidden = !v.over;
  if (v.over) renderEnd(v);
}

function renderEnd(v) {
  const r = v.result;
  const mine = r.your_team;
  const margin = r.items[r.items.length - 1]["team" + mine] - r.items[r.items.length - 1]["team" + (1 - mine)];
  let text = `The hand ended: ${({out: "a player went out", special: "a special hand was declared", stock: "the stock ran out", limit: "the turn limit"})[r.end] || r.end}. `;
  text += margin > 0 ? `Your team won the hand by ${margin}.` : margin < 0 ? `Your team lost the hand by ${-margin}.` : "A tie.";
  if (v.table.mode === "game") text += ` Game totals: your team ${r.totals[mine].toLocaleString()}, opponents ${r.totals[1 - mine].toLocaleString()}` + (r.game_over ? " — the game is over." : ` (to ${r.target.toLocaleString()}).`);
  $("end-summary").textContent = text;
  const t = $("score-table");
  const lab = mine === 0 ? ["Your team", "Opponents"] : ["Opponents", "Your team"];
  t.innerHTML = `<tr><th>score</th><th>${lab[0]}</th><th>${lab[1]}</th></tr>` + r.items.map((it) => `<tr${it.item === "total" ? ' style="font-weight:700"' : ""}><td>${it.item.replaceAll("_", " ")}</td><td class="n">${it.team0}</td><td class="n">${it.team1}</td></tr>`).join("");
  $("held").textContent = "Cards left in hand: " + [0, 1, 2, 3].map((p) => `${v.players[p]}: ${r.held[p] || "none"}`).join(" · ");
  $("b-next").hidden = !r.next_hand;
  $("review").innerHTML = "";
}

async function move(name, extra) {
  if (busy || !view) return;
  const cards = selected.map((i) => view.hand[i]);
  const body = Object.assign({move: name, cards}, extra || {});
  if (name === "discard" && cards.length !== 1) { say("Select exactly one card to discard, then press Discard.", true); return; }
  if (name === "meld" && !cards.length) { say("Select the cards to meld first (click them in your hand).", true); return; }
  await run(api("/api/move", body), true);
}

async function run(promise, clearHint) {
  busy = true;
  try {
    const v = await promise;
    busy = false;
    if (clearHint) $("hint").hidden = true;
    say("");
    render(v);
  } catch (e) {
    busy = false;
    const keep = selected.slice();
    if (view) render(view);
    keep.forEach((i) => { const el = document.querySelector(`#hand .card[data-i="${i}"]`); if (el) { el.classList.add("sel"); } });
    selected = keep;
    say("Not allowed: " + e.message, true);
  }
  drawn();
}

async function hint() {
  const box = $("hint");
  box.hidden = false;
  box.textContent = "Thinking (a few seconds)…";
  try {
    const h = await api("/api/hint", {});
    const rows = h.choices.map((c, i) => `<tr><td>${i + 1}</td><td>${c.label}${c.bot_pick ? " <small>(the bot's pick)</small>" : ""}</td><td>${c.mean >= 0 ? "+" : ""}${c.mean.toFixed(0)}</td><td>${c.ci[0].toFixed(0)} to ${c.ci[1].toFixed(0)}</td><td>${i === 0 ? "best" : c.diff.toFixed(0)}</td></tr>`).join("");
    box.innerHTML = `<strong>Hint (${h.decision === "draw" ? "draw or take the pile" : "your whole play this turn"}):</strong> expected points for your team this hand, over simulated deals of the unseen cards (rules: ${h.ruleset})<table><tr><th>#</th><th>choice</th><th>points</th><th>95% interval</th><th>vs best</th></tr>${rows}</table><div class="why" data-testid="hint-why"></div>`;
    box.querySelector(".why").textContent = "Why: " + h.why;
  } catch (e) {
    box.textContent = "No hint: " + e.message;
  }
  drawn();
}

async function options() {
  const o = await api("/api/options");
  for (const id of ["partner", "opponents"]) {
    const s = $(id);
    s.innerHTML = o.bots.map((b) => `<option${b === o.default_bot ? " selected" : ""}>${b}</option>`).join("");
  }
  $("rules").innerHTML = Object.keys(o.rulesets).map((k) => `<option${k === o.default_rules ? " selected" : ""}>${k}</option>`).join("");
}

async function start() {
  const body = {mode: $("mode").value, partner: $("partner").value, opponents: $("opponents").value, rules: $("rules").value};
  const seed = $("seed").value;
  if (seed !== "") body.seed = Number(seed);
  const f = $("rules-file").files[0];
  if (f) { body.rules_toml = await f.text(); body.rules_name = f.name; }
  $("start").disabled = true;
  try { render(await api("/api/new", body)); $("hint").hidden = true; say("Dealt. " + (view.your_turn ? "" : "")); }
  catch (e) { alert("Cannot start: " + e.message); }
  $("start").disabled = false;
  drawn();
}

let replay = null, rh = 0, rf = 0;
function showFrame() {
  const h = replay.hands[rh], f = h.frames[rf];
  $("r-where").textContent = `hand ${rh + 1} of ${replay.hands.length}, step ${rf} of ${h.frames.length - 1}`;
  $("r-move").textContent = f.move;
  $("r-table").textContent = [0, 1, 2, 3].map((p) => `P${p} ${replay.players[p]}: ${f.hands[p] || "(none)"}`).join("\n") +
    `\nteam 0 melds: ${f.melds[0]}\nteam 1 melds: ${f.melds[1]}\npile ${f.pile} cards, stock ${f.stock}` +
    (rf === h.frames.length - 1 ? `\nhand score: team 0 ${h.totals[0]}, team 1 ${h.totals[1]}` : "");
}
async function loadReplay() {
  const f = $("replay-file").files[0];
  if (!f) return;
  try {
    replay = await api("/api/replay", JSON.parse(await f.text()));
    rh = 0; rf = 0; $("replay-view").hidden = false; showFrame();
  } catch (e) { $("replay-view").hidden = false; $("r-move").textContent = "Cannot replay it: " + e.message; $("r-table").textContent = ""; }
  drawn();
}

document.addEventListener("DOMContentLoaded", async () => {
  document.querySelectorAll("button[data-move]").forEach((b) => { b.onclick = () => move(b.dataset.move); });
  $("b-hint").onclick = hint;
  $("b-undo").onclick = () => run(api("/api/undo", {}), true);
  $("b-clear").onclick = () => render(view);
  $("b-next").onclick = () => run(api("/api/next", {}), true);
  $("b-new").onclick = () => { $("setup").hidden = false; $("table").hidden = true; };
  $("b-review").onclick = async () => {
    const box = $("review");
    box.textContent = "Reviewing your decisions (a few seconds each)…";
    try {
      const r = await api("/api/review", {});
      box.innerHTML = "";
      if (!r.review.length) { drawn(); box.textContent = `No decision of yours cost more than ${r.threshold} points by the hint's measure (a clear gap on the same simulated deals).`; return; }
      const ul = document.createElement("ul");
      for (const x of r.review) { const li = document.createElement("li"); li.textContent = `Turn ${x.turn}: you chose "${x.you}" (${x.you_mean.toFixed(0)}); the hint would have said "${x.best}" (${x.best_mean.toFixed(0)}: +${x.gain.toFixed(0)} on the same deals, 95% interval +${x.gain_ci[0].toFixed(0)} to +${x.gain_ci[1].toFixed(0)}). ${x.why}`; ul.appendChild(li); }
      box.appendChild(ul);
    } catch (e) { box.textContent = "No review: " + e.message; }
    drawn();
  };
  $("start").onclick = start;
  $("replay-file").onchange = loadReplay;
  $("r-next").onclick = () => { if (!replay) return; const h = replay.hands[rh]; if (rf < h.frames.length - 1) rf++; else if (rh < replay.hands.length - 1) { rh++; rf = 0; } showFrame(); };
  $("r-prev").onclick = () => { if (!replay) return; if (rf > 0) rf--; else if (rh > 0) { rh--; rf = replay.hands[rh].frames.length - 1; } showFrame(); };
  await options();
  $("start").disabled = false;
  try { render(await api("/api/state")); } catch (e) { /* no table yet: the start panel */ }
});
