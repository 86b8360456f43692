// A live page (a table or a hand): when the game changes, fetch the page's fragment again
// and put it in place, without a reload. The event stream carries only the version.
"use strict";
(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const version = () => {
    const turn = live.querySelector("[data-version]");
    return turn ? turn.getAttribute("data-version") : "";
  };
  let shown = null;
  // The answer to the player's last move, kept across refreshes (a change heard while the
  // move was on its way must not wipe it).
  let said = "";
  function say() {
    if (!said || live.querySelector(".note")) return;
    const note = document.createElement("p");
    note.className = "note";
    note.setAttribute("role", "status");
    note.textContent = said;
    live.prepend(note);
  }
  async function refresh() {
    const response = await fetch(live.dataset.fragment, { cache: "no-store" });
    if (!response.ok) return;
    const fresh = document.createElement("template");
    fresh.innerHTML = await response.text();
    const turn = fresh.content.querySelector("[data-version]");
    const arrived = turn ? Number(turn.getAttribute("data-version")) : 0;
    if (Number(version()) > arrived) return; // an older answer overtaken by a newer one
    live.replaceChildren(fresh.content);
    shown = version();
    say();
    document.body.dataset.updated = String(Date.now());
  }
  function connect() {
    const events = new EventSource(live.dataset.events);
    events.onmessage = (message) => {
      if (shown === null) shown = version();
      if (message.data !== shown) refresh();
    };
    // EventSource reconnects by itself and sends Last-Event-ID; when the browser gives up
    // (the stream closed for good), start again after a pause, then re-fetch.
    events.onerror = () => {
      if (events.readyState === EventSource.CLOSED) {
        setTimeout(() => { connect(); refresh(); }, 2000);
      }
    };
  }
  // Tapping the board zooms it inside its box (the page itself never scrolls sideways).
  live.addEventListener("click", (event) => {
    const image = event.target.closest("img[data-zoom]");
    if (image) image.parentElement.classList.toggle("zoomed");
  });
  // A move is sent without leaving the page; the fragment then shows the game after it.
  live.addEventListener("submit", async (event) => {
    const form = event.target.closest("form.move");
    if (!form) return;
    event.preventDefault();
    said = "";
    for (const button of live.querySelectorAll("form.move button")) button.disabled = true;
    const response = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "application/json" },
    });
    const answer = response.ok ? await response.json() : { note: "" };
    said = answer.note || "";
    await refresh();
  });
  connect();
})();
