// The canasta table page: talks to the JSON API of canasta serve (docs/web.md). No framework.
// Every string from the server or a file is shown as text (textContent, never as HTML): a
// ruleset's or a record's names cannot run script, and the page's Content-Security-Policy
// runs no inline script at all.
"use strict";
const $ = (id) => document.getElementById(id);
let view = null;          // the last table view from the server
let selected = [];        // indices into view.hand
let busy = false;
let ready = false;        // the server's warm-up is done (GET /api/ready)
let hintBudget = 3;
let answered = 0;         // answers drawn so far (document.body.dataset.answered: for tests)
function drawn() { document.body.dataset.answered = String(++answered); }

// An element with text only: el("td", "text", "class")
function el(tag, text, cls) {
  const d = document.createElement(tag);
  if (text !== undefined && text !== null) d.textContent = String(text);
  if (cls) d.className = cls;
  return d;
}

// The table's key (sent once with a new table) proves the session cookie is this page's own:
// kept in this origin's storage, which a page on another port cannot write as it can a cookie.
function tableKey() { try { return localStorage.getItem("canasta_key") || ""; } catch (e) { return ""; } }
function keepKey(k) {
  try { localStorage.setItem("canasta_key", k); } catch (e) { /* kept for this page only */ }
  for (const id of ["b-record", "b-record2"]) { const a = $(id); if (a) a.href = "/api/record?key=" + encodeURIComponent(k); }
}
async function api(path, body) {
  const headers = {"X-Canasta-Key": tableKey()};
  const opts = body === undefined ? {headers} : {method: "POST", headers: {...headers, "Content-Type": "application/json"}, body: JSON.stringify(body)};
  const r = await fetch(path, opts);
  if (r.headers.get("X-Canasta-Key")) keepKey(r.headers.get("X-Canasta-Key"));
  let data = null;
  try { data = await r.json(); } catch (e) { data = {error: "the server sent no JSON (" + r.status + ")"}; }
  if (!r.ok) { const err = new Error(data.error || ("HTTP " + r.status)); err.rule = data.rule; err.allowed = data.allowed; err.status = r.status; throw err; }
  return data;
}

// While the equity table is being computed (or waits for the server's build queue), the chance
// of winning is asked for again every 15 s and only the scores line is redrawn (the rest of
// the page is left as it is).
let chanceTimer = null;
function watchChance(v, base) {
  clearTimeout(chanceTimer);
  if (!v.chance || (v.chance.status !== "computing" && v.chance.status !== "waiting")) return;
  chanceTimer = setTimeout(async () => {
    let s;
    try { s = await api("/api/state"); } catch (e) { return; }
    if (!view || s.move_no !== v.move_no || !s.chance) return;
    $("scores").textContent = base + s.chance.text;
    watchChance(s, base);
  }, 15000);
}

function say(text, bad) {
  const m = $("message");
  m.textContent = text || "";
  m.className = text ? (bad ? "bad" : "ok") : "";
}

const WILD = new Set(["2", "JK"]);
function cardEl(name, extra) {
  const d = el("span", name === "3r" ? "3♥" : name === "3b" ? "3♠" : name, "card" + (WILD.has(name) ? " wild" : "") + (name === "3r" ? " red" : "") + (extra ? " " + extra : ""));
  d.title = name === "JK" ? "joker (wild)" : name === "2" ? "two (wild)" : name === "3r" ? "red three" : name === "3b" ? "black three" : name;
  return d;
}

function meldsEl(box, melds, clickable) {
  box.replaceChildren();
  if (!melds.length) { box.textContent = "no melds yet"; return; }
  for (const m of melds) {
    const d = el("div", null, "meld" + (m.canasta ? " canasta" : ""));
    d.dataset.rank = m.rank;
    const n = m.cards.length;
    d.appendChild(el("span", (m.rank === "wild" ? "wild meld" : m.rank + "s") + " · " + n + (m.canasta ? (m.natural ? " · natural canasta" : " · canasta") : " of 7"), "tag"));
    for (const c of m.cards) d.appendChild(cardEl(c));
    if (clickable) { d.onclick = () => move("meld", {target: m.rank}); d.tabIndex = 0; d.onkeydown = (e) => { if (e.key === "Enter") move("meld", {target: m.rank}); }; }
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

function openingText(v) {
  const o = v.opening;
  if (!o) return "";
  return `Your team has not opened: melds of this turn count ${o.so_far} of the ${o.min} points the first meld needs` + (o.so_far > 0 && o.so_far < o.min ? ` (${o.min - o.so_far} more before you may discard)` : "");
}

function toggle(i) {
  const d = document.querySelector(`#hand .card[data-i="${i}"]`);
  const k = selected.indexOf(i);
  if (k >= 0) selected.splice(k, 1); else selected.push(i);
  if (d) d.classList.toggle("sel");
}

function render(v) {
  view = v;
  selected = [];
  $("setup").hidden = true;
  $("table").hidden = false;
  const [us, them] = v.teams;
  const tot = v.over ? [v.result.totals[v.result.your_team], v.result.totals[1 - v.result.your_team]] : [us.score, them.score];
  $("scores").textContent = (v.over ? "After this hand: " : "") + `Your team ${tot[0].toLocaleString()} · Opponents ${tot[1].toLocaleString()}` + (v.table.mode === "game" ? ` · hand ${v.hand_no} · game to ${v.ruleset.rules.target.toLocaleString()}` : " · one hand");
  if (v.chance) $("scores").textContent += " · " + v.chance.text;
  watchChance(v, $("scores").textContent.slice(0, $("scores").textContent.length - (v.chance ? v.chance.text.length : 0)));
  $("rules-shown").textContent = "Rules: " + v.ruleset.name + " — rule of five " + (v.ruleset.rules.rule_of_five ? "on" : "off") + ", up to " + v.ruleset.rules.max_wilds_mixed + " wilds in a mixed meld, special hands " + v.ruleset.rules.special_hands;
  const hs = v.hand_sizes;
  $("them-seats").textContent = `— ${v.players[them.seats[0]]}: ${hs[them.seats[0]]} cards, ${v.players[them.seats[1]]}: ${hs[them.seats[1]]} cards` + (them.opened ? "" : " · not opened yet");
  $("us-seats").textContent = `— ${v.players[us.seats[1]]}: ${hs[us.seats[1]]} cards` + (us.opened ? "" : ` · not opened yet: your first meld needs ${v.open_min} points`);
  $("opening").textContent = openingText(v);
  meldsEl($("them-melds"), them.melds, false);
  meldsEl($("us-melds"), us.melds, true);
  for (const [box, t] of [[$("them-melds"), them], [$("us-melds"), us]]) {
    box.appendChild(el("div", `Threes laid: ${t.red_threes} red, ${t.black_threes} black`, "threes"));
  }
  $("stock-n").textContent = v.stock;
  $("pile-top").replaceChildren(v.pile_top ? cardEl(v.pile_top) : el("span", "empty", "card empty"));
  $("pile-n").textContent = `(${v.pile_size} card${v.pile_size === 1 ? "" : "s"})`;
  const st = $("status");
  st.textContent = statusText(v) + (v.your_turn ? " (turn " + v.turn + ")" : "");
  st.className = v.your_turn ? "you" : "";
  const recent = v.recent;
  $("recent").textContent = recent.length ? "Since your last move: " + recent.join(" · ") : "";
  $("hand-n").textContent = `(${v.hand.length} card${v.hand.length === 1 ? "" : "s"})`;
  const hand = $("hand");
  hand.replaceChildren();
  let marked = false;
  v.hand.forEach((c, i) => {
    const mark = !marked && v.drawn === c;
    if (mark) marked = true;
    const d = cardEl(c, mark ? "drawn" : "");
    if (mark) d.title += " — drawn this turn";
    d.dataset.i = i;
    d.dataset.card = c;
    d.tabIndex = 0;
    d.setAttribute("role", "button");
    d.onclick = () => toggle(i);
    d.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); toggle(i); } };
    hand.appendChild(d);
  });
  $("drawn-note").textContent = v.drawn ? `You drew ${v.drawn} (marked).` : "";
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
  log.replaceChildren();
  for (const line of v.log) {
    const li = el("li");
    li.dataset.turn = line.turn;
    li.appendChild(el("span", "Turn " + line.turn, "turn"));
    li.appendChild(document.createTextNode(" " + line.text));
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
  $("end").hidden = !v.over;
  if (v.over) renderEnd(v);
  renderRunning(v);
  $("b-leave").textContent = v.table.mode === "game" ? "Leave the game" : "Leave the hand";
  en("b-leave", true);
}

const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "") + Math.abs(n).toLocaleString();

// The running score: what each team's table is worth if the hand ended now, each row with
// the rules behind it; your own hand beside it (only you see it).
function renderRunning(v) {
  const box = $("running");
  $("running-line").textContent = "";
  if (!v.running) { box.hidden = true; return; }
  box.hidden = false;
  const t = $("running-table");
  t.replaceChildren();
  const head = el("tr");
  for (const h of ["", "Your team", "Opponents", "why (rules)"]) head.appendChild(el("th", h));
  t.appendChild(head);
  for (const r of v.running.rows) {
    const tr = el("tr", null, r.item === "total" ? "total" : "");
    tr.dataset.item = r.item;
    tr.appendChild(el("td", r.item === "total" && v.running.rows.length === 1 ? "total (nothing on the table yet)" : r.label));
    tr.appendChild(el("td", signed(r.you), "n"));
    tr.appendChild(el("td", signed(r.opponents), "n"));
    tr.appendChild(el("td", r.why, "why"));
    t.appendChild(tr);
  }
  $("running-hand").textContent = `Your hand: ${signed(v.running.hand)} — ${v.running.hand_why}.`;
  const total = v.running.rows[v.running.rows.length - 1];
  $("running-line").textContent = `This hand so far: your team ${signed(total.you)}, opponents ${signed(total.opponents)} (on the table)`;
}

// The bots' turns since your last move, shown one by one (the pace chosen on the start
// panel; S, Esc or "Show all now" skips to the end), then the table as it is now.
let skipTurns = null;
function pace() { return Number($("pace").value) || 0; }
function showTurn(v, f, shown) {
  const [us, them] = f.teams;
  meldsEl($("them-melds"), them.melds, false);
  meldsEl($("us-melds"), us.melds, false);
  for (const [box, t] of [[$("them-melds"), them], [$("us-melds"), us]]) {
    box.appendChild(el("div", `Threes laid: ${t.red_threes} red, ${t.black_threes} black`, "threes"));
  }
  const hs = f.hand_sizes;
  $("them-seats").textContent = `— ${v.players[them.seats[0]]}: ${hs[them.seats[0]]} cards, ${v.players[them.seats[1]]}: ${hs[them.seats[1]]} cards`;
  $("us-seats").textContent = `— ${v.players[us.seats[1]]}: ${hs[us.seats[1]]} cards`;
  $("stock-n").textContent = f.stock;
  $("pile-top").replaceChildren(f.pile_top ? cardEl(f.pile_top) : el("span", "empty", "card empty"));
  $("pile-n").textContent = `(${f.pile_size} card${f.pile_size === 1 ? "" : "s"})`;
  $("status").textContent = `${f.who} played (turn ${f.turn}) — ${shown} of ${v.bot_turns.length}`;
  $("status").className = "";
  const box = $("turns");
  for (const li of box.children) li.className = "";
  const li = el("li", f.lines.join(" · "), "now");
  li.dataset.seat = f.seat;
  box.appendChild(li);
  const log = $("log");
  for (const item of log.children) item.hidden = Number(item.dataset.turn) > f.turn;
}
async function show(v, animate) {
  const frames = v.bot_turns || [];
  const ms = pace();
  if (animate && frames.length && ms > 0) {
    busy = true;
    render(v);  // the buttons drawn disabled while busy; the public table is then replayed
    $("recent").hidden = true;
    $("turns").replaceChildren();
    $("turns").hidden = false;
    $("b-skip").hidden = false;
    let skipped = false;
    for (let i = 0; i < frames.length && !skipped; i++) {
      showTurn(v, frames[i], i + 1);
      await new Promise((res) => {
        const timer = setTimeout(res, ms);
        skipTurns = () => { skipped = true; clearTimeout(timer); res(); };
      });
    }
    skipTurns = null;
    busy = false;
    $("turns").hidden = true;
    $("b-skip").hidden = true;
    $("recent").hidden = false;
  }
  render(v);
}

// A question on the page before a game in progress is thrown away (a new table, leaving).
function ask(text, yes) {
  return new Promise((res) => {
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes;
    $("confirm").hidden = false;
    $("confirm-no").focus();
    const done = (ok) => { $("confirm").hidden = true; $("confirm-yes").onclick = null; $("confirm-no").onclick = null; res(ok); };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
  });
}
function inProgress() { return !!view && !(view.over && (view.table.mode === "hand" || view.result.game_over)); }
function what(v) { return v.table.mode === "game" ? `The game in progress (hand ${v.hand_no})` : "The hand in progress"; }

async function newTable() {
  if (busy) return;
  if (inProgress() && !(await ask(`Start a new table? ${what(view)} will be thrown away.`, "Throw it away"))) return;
  $("setup-note").textContent = "";
  $("setup").hidden = false;
  $("table").hidden = true;
  $("b-back").hidden = !view;
}

async function leave() {
  if (busy || !view) return;
  const kind = view.table.mode === "game" ? "game" : "hand";
  if (inProgress() && !(await ask(`Leave the table? ${what(view)} will be abandoned, not scored (download its record first to keep it).`, `Leave the ${kind}`))) return;
  try {
    const r = await api("/api/leave", {move_no: view.move_no});
    view = null;
    clearTimeout(chanceTimer);
    $("table").hidden = true;
    $("setup").hidden = false;
    $("b-back").hidden = true;
    $("scores").textContent = "";
    $("running-line").textContent = "";
    $("setup-note").textContent = r.text + " Deal to start another.";
  } catch (e) {
    say("Cannot leave: " + e.message, true);
  }
  drawn();
}

function renderEnd(v) {
  const r = v.result;
  const mine = r.your_team;
  const last = r.items[r.items.length - 1];
  const margin = last["team" + mine] - last["team" + (1 - mine)];
  let text = `The hand ended: ${({out: "a player went out", special: "a special hand was declared", stock: "the stock ran out", limit: "the turn limit"})[r.end] || r.end}. `;
  text += margin > 0 ? `Your team won the hand by ${margin}.` : margin < 0 ? `Your team lost the hand by ${-margin}.` : "A tie.";
  if (v.table.mode === "game") text += ` Game totals: your team ${r.totals[mine].toLocaleString()}, opponents ${r.totals[1 - mine].toLocaleString()}` + (r.game_over ? " — the game is over." : ` (to ${r.target.toLocaleString()}).`);
  $("end-summary").textContent = text;
  const t = $("score-table");
  t.replaceChildren();
  const lab = mine === 0 ? ["Your team", "Opponents"] : ["Opponents", "Your team"];
  const head = el("tr");
  for (const h of ["score", ...lab, "why (rules)"]) head.appendChild(el("th", h));
  t.appendChild(head);
  const why = {};
  for (const x of r.explained || []) why[x.item] = x.why;
  for (const it of r.items) {
    const tr = el("tr", null, it.item === "total" ? "total" : "");
    tr.dataset.item = it.item;
    tr.appendChild(el("td", it.item.replaceAll("_", " ")));
    tr.appendChild(el("td", it.team0, "n"));
    tr.appendChild(el("td", it.team1, "n"));
    tr.appendChild(el("td", why[it.item] || "", "why"));
    t.appendChild(tr);
  }
  $("held").textContent = "Cards left in hand: " + [0, 1, 2, 3].map((p) => `${v.players[p]}: ${r.held[p] || "none"}`).join(" · ");
  $("b-next").hidden = !r.next_hand;
  $("b-review-game").hidden = !(v.table.mode === "game" && r.game_over);
  $("review").replaceChildren();
}

async function move(name, extra) {
  if (busy || !view) return;
  const cards = selected.map((i) => view.hand[i]);
  const body = Object.assign({move: name, cards, move_no: view.move_no}, extra || {});
  if (name === "discard" && cards.length !== 1) { say("Select exactly one card to discard, then press Discard.", true); return; }
  if (name === "meld" && !cards.length) { say("Select the cards to meld first (click them in your hand, or type their ranks).", true); return; }
  await run(api("/api/move", body), true, true);
}

async function run(promise, clearHint, animate) {
  busy = true;
  try {
    const v = await promise;
    busy = false;
    if (clearHint) $("hint").hidden = true;
    say("");
    await show(v, animate);
  } catch (e) {
    busy = false;
    const keep = selected.slice();
    if (e.status === 409) { try { render(await api("/api/state")); } catch (e2) { /* keep the view */ } }
    else if (view) render(view);
    keep.forEach((i) => { const d = document.querySelector(`#hand .card[data-i="${i}"]`); if (d) d.classList.add("sel"); });
    selected = keep;
    say("Not allowed: " + e.message + (e.allowed ? " — allowed now: " + e.allowed : ""), true);
  }
  drawn();
}

async function hint() {
  if (busy || !view) return;
  const box = $("hint");
  box.hidden = false;
  box.textContent = ready ? `Thinking (up to ${hintBudget} s)…` : "Thinking… the simulator is still being prepared (see the top of the page): this first hint waits for it.";
  try {
    const h = await api("/api/hint", {});
    box.replaceChildren();
    box.appendChild(el("strong", `Hint (${h.decision === "draw" ? "draw or take the pile" : "your whole play this turn"}):`));
    box.appendChild(document.createTextNode(` expected points for your team this hand, over simulated deals of the unseen cards (rules: ${h.ruleset})`));
    const t = el("table");
    const head = el("tr");
    const game = h.ranked_by === "game";
    if (game) box.appendChild(document.createTextNode("; ranked by your team's chance of winning the game after this hand"));
    for (const x of ["#", "choice", ...(game ? ["chance of winning", "95% interval"] : []), "points", "95% interval", game ? "chance vs best" : "vs best"]) head.appendChild(el("th", x));
    t.appendChild(head);
    h.choices.forEach((c, i) => {
      const tr = el("tr");
      tr.appendChild(el("td", i + 1));
      const td = el("td", c.label);
      if (c.bot_pick) td.appendChild(el("small", " (the bot's pick)"));
      tr.appendChild(td);
      if (game) {
        tr.appendChild(el("td", `${(100 * c.game.win).toFixed(1)}%`));
        tr.appendChild(el("td", `${(100 * c.game.ci[0]).toFixed(1)} to ${(100 * c.game.ci[1]).toFixed(1)}%`));
      }
      tr.appendChild(el("td", (c.mean >= 0 ? "+" : "") + c.mean.toFixed(0)));
      tr.appendChild(el("td", `${c.ci[0].toFixed(0)} to ${c.ci[1].toFixed(0)}`));
      if (game) tr.appendChild(el("td", i === 0 ? "best" : Math.abs(100 * c.game.diff) < 0.05 ? "about the same" : `${(100 * c.game.diff).toFixed(1)} pp`));
      else tr.appendChild(el("td", i === 0 ? "best" : Math.round(c.diff) === 0 ? "about the same" : Math.round(c.diff).toString()));
      t.appendChild(tr);
    });
    box.appendChild(t);
    const why = el("div", "Why: " + h.why, "why");
    why.dataset.testid = "hint-why";
    box.appendChild(why);
  } catch (e) {
    box.textContent = "No hint: " + e.message;
  }
  drawn();
}

// The review of your decisions (POST /api/review): a hand's, or at the game's end the whole
// game's. Numbers and the server's words only, each shown as text; the figure of your team's
// chance of winning is drawn here from those numbers (SVG elements, never HTML from a string).
const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}
const TAG_COLOURS = {doubtful: "#ccbb44", error: "#ee7733", blunder: "#cc3311"};
const pp = (x) => (x === null || x === undefined ? "" : (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(100 * x).toFixed(2));
const pts = (x) => (x === null || x === undefined ? "" : signed(Math.round(x)));

function chanceFigure(r) {
  const rows = r.decisions.filter((d) => d.win !== null);
  if (!rows.length) return el("p", "No chance of winning to draw: " + r.chance + ".", "why");
  const W = 640, H = 200, L = 40, R = 10, T = 10, B = 28;
  const x = (i) => L + (rows.length === 1 ? 0 : (i * (W - L - R)) / (rows.length - 1));
  const y = (p) => T + (1 - p) * (H - T - B);
  const svg = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", "aria-label": "your team's chance of winning the game after each of your decisions", "data-testid": "review-figure"});
  svg.appendChild(svgEl("rect", {x: L, y: T, width: W - L - R, height: H - T - B, fill: "#0b2e19"}));
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.appendChild(svgEl("line", {x1: L, x2: W - R, y1: y(p), y2: y(p), stroke: "#1f6f3f"}));
    svg.appendChild(svgEl("text", {x: L - 4, y: y(p) + 4, "text-anchor": "end", "font-size": 11, fill: "#f3f4f6"}, `${100 * p}%`));
  }
  rows.forEach((d, i) => {
    if (i > 0 && d.hand !== rows[i - 1].hand) {
      const xm = (x(i) + x(i - 1)) / 2;
      svg.appendChild(svgEl("line", {x1: xm, x2: xm, y1: T, y2: H - B, stroke: "#94a3b8", "stroke-dasharray": "3 3"}));
      svg.appendChild(svgEl("text", {x: xm + 3, y: H - B + 12, "font-size": 10, fill: "#f3f4f6"}, `hand ${d.hand}`));
    }
  });
  svg.appendChild(svgEl("polyline", {points: rows.map((d, i) => `${x(i).toFixed(1)},${y(d.win).toFixed(1)}`).join(" "), fill: "none", stroke: "#93c5fd", "stroke-width": 2}));
  rows.forEach((d, i) => {
    const c = svgEl("circle", {cx: x(i), cy: y(d.win), r: d.tag ? 4.5 : 2.5, fill: TAG_COLOURS[d.tag] || "#93c5fd"});
    c.appendChild(svgEl("title", {}, `hand ${d.hand}, turn ${d.turn}: ${(100 * d.win).toFixed(1)}%` + (d.tag ? ` (${d.tag})` : "")));
    svg.appendChild(c);
  });
  svg.appendChild(svgEl("text", {x: L, y: H - 4, "font-size": 11, fill: "#f3f4f6"}, "your decisions in order → (dots coloured: doubtful, error, blunder)"));
  return svg;
}

function reviewSummary(r) {
  const p = r.player;
  if (!p) return "You had no decision to review.";
  let t = `Rules: ${r.ruleset}. `;
  if (p.error_rate === null) t += `No error rate: ${p.rated} of your decisions could be rated (${r.chance}). `;
  else {
    t += `Your error rate: ${p.error_rate.toFixed(1)} thousandths of a game lost a decision`;
    t += p.error_rate_ci[0] === null ? ` over ${p.rated} rated decision (too few for an interval)` : ` (95% interval ${p.error_rate_ci[0].toFixed(1)} to ${p.error_rate_ci[1].toFixed(1)}) over ${p.rated} rated decisions`;
    t += p.standing ? `: ${p.standing}. ` : ". ";
  }
  t += `Doubtful ${p.tags.doubtful}, errors ${p.tags.error}, blunders ${p.tags.blunder}. `;
  t += `Luck of your ${p.draws} stock draw${p.draws === 1 ? "" : "s"}: ${pts(p.luck_points)} points (SE ${Math.round(p.luck_points_se || 0)})`;
  if (p.luck_game !== null) t += `, ${pp(p.luck_game)} pp of the game (SE ${(100 * (p.luck_game_se || 0)).toFixed(2)})`;
  if (p.points !== null) t += `. Your team's points: ${signed(p.points)}; with your draws' luck taken out: ${pts(p.luck_adjusted_points)}.`;
  return t;
}

async function review(scope) {
  const box = $("review");
  box.textContent = scope === "game" ? "Reviewing the game (each hand's review is kept; a new one takes up to half a minute)…" : "Reviewing your decisions in this hand (up to half a minute)…";
  try {
    const r = await api("/api/review", {scope});
    box.replaceChildren();
    box.appendChild(el("h3", r.scope === "game" ? `Review of the game (${r.hands_reviewed.length} hands)` : `Review of hand ${r.hands_reviewed[0]}`));
    const sum = el("p", reviewSummary(r));
    sum.dataset.testid = "review-summary";
    box.appendChild(sum);
    if (r.skipped) box.appendChild(el("p", `${r.skipped} decision${r.skipped === 1 ? "" : "s"} the simulator could not advise (the hand ended first) left out.`, "why"));
    box.appendChild(el("p", `Each decision advised over up to ${r.n} simulated deals a choice of the cards you could not see; the cost is the best choice's result minus your move's on fresh deals (${r.chance}). Tags: doubtful from ${100 * r.tags.doubtful} pp of the game, error from ${100 * r.tags.error}, blunder from ${100 * r.tags.blunder}, only when the cost's 95% interval lies above 0.`, "why"));
    box.appendChild(chanceFigure(r));
    const t = el("table");
    t.dataset.testid = "review-table";
    const head = el("tr");
    for (const h of ["hand", "turn", "decision", "your move", "best", "confidence", "cost (points)", "cost (pp of the game)", "tag"]) head.appendChild(el("th", h));
    t.appendChild(head);
    for (const d of r.decisions) {
      const tr = el("tr", null, d.tag ? "tag-" + d.tag : "");
      tr.dataset.tag = d.tag;
      tr.appendChild(el("td", d.hand));
      tr.appendChild(el("td", d.turn));
      tr.appendChild(el("td", d.decision));
      tr.appendChild(el("td", d.made || "(a move outside the listed plans)"));
      tr.appendChild(el("td", d.best));
      tr.appendChild(el("td", d.confidence === null ? "" : `${Math.round(100 * d.confidence)}%`));
      tr.appendChild(el("td", d.cost_points === null ? "" : `${pts(d.cost_points)} (${pts(d.cost_points_ci[0])} to ${pts(d.cost_points_ci[1])})`, "n"));
      tr.appendChild(el("td", d.cost_game === null ? "" : `${pp(d.cost_game)} (${pp(d.cost_game_ci[0])} to ${pp(d.cost_game_ci[1])})`, "n"));
      tr.appendChild(el("td", d.tag));
      t.appendChild(tr);
    }
    box.appendChild(t);
    if (r.luck.length) {
      const det = el("details");
      det.appendChild(el("summary", "The luck of each stock draw (the drawn card's share of the result, by the same simulation)"));
      const ul = el("ul");
      for (const l of r.luck) ul.appendChild(el("li", `hand ${l.hand}, turn ${l.turn}: drew ${l.card}, ${pts(l.points)} points (SE ${Math.round(l.points_se || 0)})` + (l.game === null ? "" : `, ${pp(l.game)} pp of the game`)));
      det.appendChild(ul);
      box.appendChild(det);
    }
  } catch (e) { box.textContent = "No review: " + e.message; }
  drawn();
}

async function options() {
  const o = await api("/api/options");
  hintBudget = o.hint_budget || hintBudget;
  for (const id of ["partner", "opponents"]) {
    const s = $(id);
    s.replaceChildren();
    for (const b of o.bots) { const op = el("option", b); op.value = b; op.selected = b === o.default_bot; s.appendChild(op); }
  }
  const r = $("rules");
  r.replaceChildren();
  for (const k of Object.keys(o.rulesets)) { const op = el("option", k); op.value = k; op.selected = k === o.default_rules; r.appendChild(op); }
}

async function watchReady() {
  const box = $("ready");
  for (;;) {
    let s = null;
    try { s = await api("/api/ready"); } catch (e) { box.hidden = true; return; }
    if (s.ready) { ready = true; box.hidden = true; return; }
    box.hidden = false;
    box.textContent = `Preparing the bots and the hint's simulator (first start compiles them): step ${s.step + 1} of ${s.of}, ${s.doing}, ${s.seconds.toFixed(0)} s so far. You may deal now; the first deal waits for it.`;
    await new Promise((res) => setTimeout(res, 1000));
  }
}

async function start() {
  const body = {mode: $("mode").value, partner: $("partner").value, opponents: $("opponents").value, rules: $("rules").value};
  const seed = $("seed").value;
  if (seed !== "") body.seed = Number(seed);
  const f = $("rules-file").files[0];
  if (f) { body.rules_toml = await f.text(); body.rules_name = f.name; }
  $("start").disabled = true;
  try { $("hint").hidden = true; $("setup-note").textContent = ""; await show(await api("/api/new", body), true); say("Dealt."); }
  catch (e) { say("Cannot start: " + e.message, true); $("start-error").textContent = "Cannot start: " + e.message; }
  $("start").disabled = false;
  drawn();
}

let replay = null, rh = 0, rf = 0;
function showFrame() {
  const h = replay.hands[rh], f = h.frames[rf];
  $("r-where").textContent = `hand ${rh + 1} of ${replay.hands.length}, step ${rf} of ${h.frames.length - 1} (${replay.authenticity})`;
  $("r-move").textContent = f.move;
  $("r-table").textContent = [0, 1, 2, 3].map((p) => `P${p} ${replay.players[p]}: ${f.hands[p] || "(none)"}`).join("\n") +
    `\nteam 0 melds: ${f.melds[0]}\nteam 1 melds: ${f.melds[1]}\npile ${f.pile} cards, stock ${f.stock}` +
    (rf === h.frames.length - 1 ? `\nhand score: team 0 ${h.totals[0]}, team 1 ${h.totals[1]}` : "");
}
async function loadReplay() {
  const f = $("replay-file").files[0];
  if (!f) return;
  try {
    let rec = null;
    try { rec = JSON.parse(await f.text()); } catch (e) { throw new Error("the file is not JSON"); }
    replay = await api("/api/replay", rec);
    rh = 0; rf = 0; $("replay-view").hidden = false; showFrame();
  } catch (e) { $("replay-view").hidden = false; $("r-move").textContent = "Cannot replay it: " + e.message; $("r-table").textContent = ""; }
  drawn();
}

// Keyboard play: a rank key selects the next card of that rank (Shift: unselects one),
// D draw, P pile, M meld, X discard, O go out, H hint, U undo, Esc clears the selection.
const RANK_KEYS = {a: "A", k: "K", q: "Q", j: "J", t: "10", "0": "10", "9": "9", "8": "8", "7": "7", "6": "6", "5": "5", "4": "4", "2": "2", "*": "JK", z: "JK", "3": "3b"};
function onKey(e) {
  if (!$("confirm").hidden) { if (e.key === "Escape") $("confirm-no").click(); return; }
  if (skipTurns && (e.key === "s" || e.key === "S" || e.key === "Escape")) { skipTurns(); e.preventDefault(); return; }
  if (!view || $("table").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const press = (id) => { const b = $(id); if (b && !b.disabled && !b.hidden) b.click(); };
  const buttons = {d: "b-draw", p: "b-pile", m: "b-meld", x: "b-discard", o: "b-out", h: "b-hint", u: "b-undo", l: "b-lay", n: "b-next"};
  if (key === "Escape") { render(view); e.preventDefault(); return; }
  if (buttons[key] && !(key in RANK_KEYS)) { press(buttons[key]); e.preventDefault(); return; }
  const rank = RANK_KEYS[key] || (e.key === "#" ? "3b" : null);
  if (!rank) return;
  const wanted = rank === "3b" ? ["3b", "3r"] : [rank];
  const idx = view.hand.map((c, i) => [c, i]).filter(([c]) => wanted.includes(c)).map(([, i]) => i);
  if (e.shiftKey) { const i = [...idx].reverse().find((j) => selected.includes(j)); if (i !== undefined) toggle(i); }
  else { const i = idx.find((j) => !selected.includes(j)); if (i !== undefined) toggle(i); }
  e.preventDefault();
}

document.addEventListener("DOMContentLoaded", async () => {
  document.querySelectorAll("button[data-move]").forEach((b) => { b.onclick = () => move(b.dataset.move); });
  $("b-hint").onclick = hint;
  $("b-undo").onclick = () => { if (!busy && view) run(api("/api/undo", {move_no: view.move_no}), true); };
  $("b-clear").onclick = () => render(view);
  $("b-next").onclick = () => { if (!busy && view) run(api("/api/next", {move_no: view.move_no}), true, true); };
  $("b-new").onclick = newTable;
  $("b-leave").onclick = leave;
  $("b-skip").onclick = () => { if (skipTurns) skipTurns(); };
  $("b-back").onclick = () => { if (view) render(view); };
  const saved = localStorage.getItem("canasta.pace");
  if (saved !== null) $("pace").value = saved;
  $("pace").onchange = () => localStorage.setItem("canasta.pace", $("pace").value);
  $("b-review").onclick = () => review("hand");
  $("b-review-game").onclick = () => review("game");
  $("start").onclick = start;
  $("replay-file").onchange = loadReplay;
  $("r-next").onclick = () => { if (!replay) return; const h = replay.hands[rh]; if (rf < h.frames.length - 1) rf++; else if (rh < replay.hands.length - 1) { rh++; rf = 0; } showFrame(); };
  $("r-prev").onclick = () => { if (!replay) return; if (rf > 0) rf--; else if (rh > 0) { rh--; rf = replay.hands[rh].frames.length - 1; } showFrame(); };
  document.addEventListener("keydown", onKey);
  watchReady();
  await options();
  $("start").disabled = false;
  if (tableKey()) keepKey(tableKey());
  try { render(await api("/api/state")); } catch (e) { /* no table yet: the start panel */ }
});
