// The hand page: a turn built on the surface by tapping, sent with one Confirm.
// Every target is a button of the page's form; this script sends the same choices without
// leaving the page, says why a dim target is refused, and keeps the page live. The Discord
// Activity (activity.js) mounts the same board on an element of its own: ``mount(root)``.

// Seconds a live page waits for its event stream's first word (the server sends the version
// at once) before it takes the stream for one a proxy holds back, and asks every POLL_SECONDS
// instead, where the page offers a version address (``data-poll``; the Activity's does).
const FIRST_WORD_SECONDS = 5;
const POLL_SECONDS = 4;

export function mount(root) {
  const state = { steps: "", pick: "", version: "" };
  // Per game, not per link: every link to the same hand shares what its player has seen.
  const seenKey = `seen:${root.dataset.game}`;
  const seenAtLoad = Number(localStorage.getItem(seenKey) || 0);
  // The answer to the last Confirm: kept across refreshes (a change heard meanwhile must not
  // wipe it) until the player taps again.
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

  // A picture whose address has not changed (the same game version) stays the element it is,
  // rather than being fetched and decoded again at every tap: the new surface gets a marker in
  // its place, and the picture goes where the marker is. It never leaves this document (an
  // element adopted by another document loads its picture again).
  function keepPictures(fresh) {
    const shown = new Map([...root.querySelectorAll("img")].map((img) => [img.getAttribute("src"), img]));
    const kept = [];
    for (const img of fresh.querySelectorAll("img")) {
      const old = shown.get(img.getAttribute("src"));
      if (!old) continue;
      old.alt = img.alt;
      const marker = fresh.ownerDocument.createElement("i");
      marker.dataset.keep = String(kept.length);
      kept.push(old);
      img.replaceWith(marker);
    }
    return kept;
  }

  function putBack(kept) {
    for (const marker of root.querySelectorAll("i[data-keep]")) {
      marker.replaceWith(kept[Number(marker.dataset.keep)]);
    }
  }

  async function load(focus) {
    const query = new URLSearchParams({ steps: state.steps, pick: state.pick });
    const response = await fetch(`${root.dataset.fragment}?${query}`, { cache: "no-store" });
    if (!response.ok) return;
    // Parsed in a document of its own (inert: nothing in it loads) so the pictures that stay
    // are never fetched again.
    const parsed = new DOMParser().parseFromString(await response.text(), "text/html");
    const kept = keepPictures(parsed.body);
    root.replaceChildren(...[...parsed.body.childNodes].map((node) => document.adoptNode(node)));
    putBack(kept);
    read();
    markNew();
    showHint();
    if (said) say(said);
    document.body.dataset.updated = String(Date.now());
    // Keyboard players go on from where the step left them: the first of ``focus`` (a list
    // of selectors, in order of preference) that the new surface has.
    for (const selector of focus || []) {
      const next = root.querySelector(selector);
      if (next) { next.focus(); break; }
    }
  }

  // While a turn is on its way, the changes it makes are not fetched one by one: the page is
  // drawn once, when the answer comes.
  let sending = false;

  async function send() {
    const body = new URLSearchParams({ version: state.version, steps: state.steps, confirm: "1" });
    sending = true;
    state.steps = "";
    state.pick = "";
    try {
      const response = await fetch(root.dataset.turn, {
        method: "POST", body, headers: { Accept: "application/json" },
      });
      // A 401 says why in a sentence (the Activity's session or instance is over).
      const refused = response.status === 401 ? await response.text() : "";
      const answer = response.ok ? await response.json() : { note: refused };
      said = answer.note || "";
    } finally {
      sending = false;
    }
    await load([".target.lit"]);
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
    said = "";
    if (button.name === "add") {
      state.steps = [...steps, button.value].join(".");
      state.pick = "";
      // What the step will do is said aloud too, to a screen reader (it is on the page already).
      load([".target.lit:not(.passive)", ".target.lit", "#confirm"]).then(() => {
        const last = root.querySelector(".built > ol > li:last-child");
        const aloud = root.querySelector("#aloud");
        if (last && aloud) aloud.textContent = last.textContent.replace(/\s+/g, " ").trim();
      });
    } else if (button.name === "pick") {
      state.pick = state.pick === button.value ? "" : button.value;
      load([".target.lit[data-source]", ".target.lit"]);
    } else if (button.name === "undo") {
      state.steps = steps.slice(0, -1).join(".");
      state.pick = "";
      load([".target.lit"]);
    } else if (button.name === "confirm") {
      send();
    } else if (button.name === "step") {
      hint(button);
    } else if (button.name === "real") {
      playForReal(button.form);
    }
  });

  // The end screen of a teaching table: a real game is opened, then played. A hand link's
  // page goes to the new game's own; the Activity (no address to go to) is told which game.
  async function playForReal(form) {
    const response = await fetch(form.action, {
      method: "POST", headers: { Accept: "application/json" },
    });
    const answer = response.ok ? await response.json() : { note: await response.text() };
    if (!answer.game) { said = answer.note || ""; say(said); return; }
    if (answer.page) { location.assign(answer.page); return; }
    root.dispatchEvent(new CustomEvent("opened", { bubbles: true, detail: answer }));
  }

  // The hint, asked for in two steps and shown in place (the answer is the server's own
  // markup, escaped there); kept across the page's refreshes while the game stays at its
  // version.
  let hinted = null;

  async function hint(button) {
    const form = button.form;
    const version = form.elements.version.value;
    const body = new URLSearchParams({ version, step: button.value });
    const response = await fetch(form.action, {
      method: "POST", body, headers: { Accept: "application/json" },
    });
    if (!response.ok) return;
    const answer = await response.json();
    hinted = { version, html: answer.html, step: answer.step };
    showHint();
  }

  function showHint() {
    const form = root.querySelector("#hinting");
    if (!form || !hinted || form.elements.version.value !== hinted.version) return;
    form.querySelector("#hint").innerHTML = hinted.html;
    const button = form.querySelector("button[name='step']");
    if (!button) return;
    if (hinted.step === "2") {
      button.remove();
    } else {
      button.value = "2";
      button.textContent = form.dataset.more;
      button.setAttribute("aria-label", form.dataset.more);
    }
  }

  let events = null;
  let polling = null;
  let stopped = false;

  function connect() {
    if (stopped) return;
    events = new EventSource(root.dataset.events);
    let heard = false;
    events.onmessage = (message) => {
      heard = true;
      if (!sending && message.data !== state.version) load(null);
    };
    events.onerror = () => {
      if (events.readyState === EventSource.CLOSED) setTimeout(() => { connect(); load(null); }, 2000);
    };
    if (root.dataset.poll) {
      setTimeout(() => { if (!heard && !stopped) poll(); }, FIRST_WORD_SECONDS * 1000);
    }
  }

  // The stream said nothing: a proxy holds it back. The version is asked for instead.
  function poll() {
    events.close();
    root.dataset.transport = "poll";
    polling = setInterval(async () => {
      const response = await fetch(root.dataset.poll, { cache: "no-store" });
      if (!response.ok) return;
      const { version } = await response.json();
      if (!sending && String(version) !== state.version) load(null);
    }, POLL_SECONDS * 1000);
  }

  read();
  markNew();
  connect();
  return {
    load,
    stop() {
      stopped = true;
      if (events) events.close();
      if (polling) clearInterval(polling);
    },
  };
}

const page = document.getElementById("play");
if (page) mount(page);
