// The replay: every told turn's board and story, stepped by buttons, the arrow keys and a
// scrubber; the address keeps the turn (?turn=N), so a turn can be linked.
"use strict";
(function () {
  const root = document.getElementById("replay");
  if (!root) return;
  const base = root.dataset.base;
  const last = Number(root.dataset.last);
  const scrub = document.getElementById("scrub");
  const image = root.querySelector("#board img");
  const story = document.getElementById("story");
  const label = document.getElementById("label");
  const png = document.getElementById("png");
  const permalink = document.getElementById("permalink");
  let turns = [];
  let turn = last;
  function show(next) {
    turn = Math.max(0, Math.min(last, next));
    scrub.value = String(turn);
    image.src = `${base}/replay/${turn}.png`;
    png.href = image.src;
    permalink.href = `?turn=${turn}`;
    root.dataset.turn = String(turn);
    const told = turns[turn];
    label.textContent = told ? told.label : String(turn);
    // Each line arrives as text; its **bold** is drawn with elements, never parsed as HTML.
    story.replaceChildren(...(told ? told.lines : []).map((line) => {
      const item = document.createElement("li");
      line.split("**").forEach((part, index) => {
        if (index % 2) {
          const strong = document.createElement("strong");
          strong.textContent = part;
          item.append(strong);
        } else {
          item.append(part);
        }
      });
      return item;
    }));
    history.replaceState(null, "", `?turn=${turn}`);
  }
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(turn - 1));
  document.getElementById("next").addEventListener("click", () => show(turn + 1));
  document.getElementById("end").addEventListener("click", () => show(last));
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === scrub) return; // the scrubber steps itself
    if (event.key === "ArrowLeft") show(turn - 1);
    else if (event.key === "ArrowRight") show(turn + 1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(last);
  });
  image.addEventListener("click", () => image.parentElement.classList.toggle("zoomed"));
  const asked = Number(new URLSearchParams(location.search).get("turn"));
  fetch(`${base}/replay.json`, { cache: "no-store" })
    .then((response) => response.json())
    .then((data) => {
      turns = data.turns;
      show(Number.isInteger(asked) && location.search.includes("turn=") ? asked : last);
    });
})();
