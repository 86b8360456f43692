// The hand page: a turn built on the surface by tapping, sent with one Confirm.
// Every target is a button of the page's form; this script sends the same choices without
// leaving the page, says why a dim target is refused, and keeps the page live.
const root = document.getElementById("play");

const state = { steps: "", pick: "", version: "" };
const seenKey = `seen:${location.pathname}`;
const seenAtLoad = Number(localStorage.getItem(seenKey) || 0);
let said = "";

function read() {
  const form = root.querySelector("#surface");
  state.steps = form ? form.elements.steps.value : "";
  state.pick = form ? form.elements.pick.value : "";
  const turn = root.querySelector("[data-version]");
  state.version = turn ? turn.dataset.version : "";
}

function say(text) {
  const note = root.querySelector("#note");
  if (note) note.textContent = text;
}

// Told turns the player had not seen when the page opened are marked new.
function markNew() {
  let newest = seenAtLoad;
  for (const item of root.querySelectorAll(".log li[data-turn]")) {
    const turn = Number(item.dataset.turn);
    if (turn > seenAtLoad) item.classList.add("new");
    newest = Math.max(newest, turn);
  }
  localStorage.setItem(seenKey, String(newest));
}

async function load(focus) {
  const query = new URLSearchParams({ steps: state.steps, pick: state.pick });
  const response = await fetch(`${root.dataset.fragment}?${query}`, { cache: "no-store" });
  if (!response.ok) return;
  const fresh = document.createElement("template");
  fresh.innerHTML = await response.text();
  root.replaceChildren(fresh.content);
  read();
  markNew();
  if (said) { say(said); said = ""; }
  document.body.dataset.updated = String(Date.now());
  if (focus) {
    const next = root.querySelector(focus) || root.querySelector(".target.lit, #confirm");
    if (next) next.focus();
  }
}

async function send() {
  const body = new URLSearchParams({ version: state.version, steps: state.steps, confirm: "1" });
  const response = await fetch(root.dataset.turn, {
    method: "POST", body, headers: { Accept: "application/json" },
  });
  const answer = response.ok ? await response.json() : { note: "" };
  said = answer.note || "";
  state.steps = "";
  state.pick = "";
  await load(".target.lit");
}

root.addEventListener("click", (event) => {
  const dim = event.target.closest("[aria-disabled='true']");
  if (dim) {
    event.preventDefault();
    say(dim.dataset.why || "");
    return;
  }
  const image = event.target.closest("img[data-zoom]");
  if (image) image.parentElement.classList.toggle("zoomed");
});

root.addEventListener("submit", (event) => {
  event.preventDefault();
  const button = event.submitter;
  if (!button || button.getAttribute("aria-disabled") === "true") return;
  const steps = state.steps ? state.steps.split(".") : [];
  if (button.name === "add") {
    state.steps = [...steps, button.value].join(".");
    state.pick = "";
    load(".target.lit, #confirm");
  } else if (button.name === "pick") {
    state.pick = state.pick === button.value ? "" : button.value;
    load(".target.lit[data-source], .target.lit");
  } else if (button.name === "undo") {
    state.steps = steps.slice(0, -1).join(".");
    state.pick = "";
    load(".target.lit");
  } else if (button.name === "confirm") {
    send();
  }
});

function connect() {
  const events = new EventSource(root.dataset.events);
  events.onmessage = (message) => {
    if (message.data !== state.version) load(null);
  };
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) setTimeout(() => { connect(); load(null); }, 2000);
  };
}

read();
markNew();
connect();
