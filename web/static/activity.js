// The Discord Activity's page: sign in through Discord's Embedded App SDK, list the channel's
// games, and mount the hand page's board (play.js) on the one chosen. Every address is relative
// to the page (/activity/), so it works there and behind Discord's proxy alike; nothing is
// fetched from anywhere else.
import { DiscordSDK } from "./discord-sdk.js";
import { mount } from "./play.js";

const shell = document.getElementById("activity");
const status = document.getElementById("status");
const list = document.getElementById("games");
const switcher = document.getElementById("switch");
const heading = document.querySelector("header h1");
const appName = heading.textContent;
// Seconds before a session lapses that the page signs in again (silently: the player has
// already authorized the app).
const RENEW_MARGIN = 120;

let sdk = null;
let session = null;
let board = null;
let shown = null;

function say(text) {
  status.textContent = text;
  status.hidden = !text;
}

// The authorization code from Discord, exchanged by the web table for a session bound to this
// player, this instance and its channel; then the SDK is told the player's access token.
async function signIn() {
  const { code } = await sdk.commands.authorize({
    client_id: shell.dataset.client,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const body = new URLSearchParams({ code, instance_id: sdk.instanceId });
  const response = await fetch("token", { method: "POST", body });
  if (!response.ok) throw new Error(await response.text());
  const answer = await response.json();
  await sdk.commands.authenticate({ access_token: answer.access_token });
  session = answer.session;
  setTimeout(renew, Math.max(10, answer.expires_in - RENEW_MARGIN) * 1000);
}

async function renew() {
  try {
    await signIn();
    if (shown) open(shown.game, "", shown.seated);  // the heading stays the game's
  } catch (error) {
    say(shell.dataset.ended);
  }
}

// The channel's games, and the games a teaching table can be opened for (``learnable``).
let learnable = [];

async function games() {
  const response = await fetch(`s/${session}/games`, { cache: "no-store" });
  if (!response.ok) throw new Error(await response.text());
  const answer = await response.json();
  learnable = answer.learn || [];
  return answer.games;
}

// A teaching table of ``game`` for this player, opened here and then played.
async function learn(game) {
  const body = new URLSearchParams({ game });
  const response = await fetch(`s/${session}/learn`, { method: "POST", body });
  if (!response.ok) { say(await response.text()); return; }
  const opened = await response.json();
  await open(opened.game, opened.title, true);
}

function learnButtons() {
  const found = [];
  for (const game of learnable) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "game learn";
    button.dataset.learn = game.id;
    const title = document.createElement("strong");
    title.textContent = shell.dataset.learn.replace("{game}", game.title);
    const line = document.createElement("span");
    line.textContent = shell.dataset.learnLine;
    button.append(title, line);
    button.addEventListener("click", () => learn(game.id));
    found.push(button);
  }
  return found;
}

function choose(found) {
  if (board) { board.stop(); board = null; }
  document.getElementById("play")?.remove();
  shown = null;
  list.replaceChildren();
  for (const game of found) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "game" + (game.waiting ? " waiting" : "");
    button.dataset.game = game.id;
    const title = document.createElement("strong");
    title.textContent = game.title;
    const line = document.createElement("span");
    line.textContent = game.turn;
    button.append(title, line);
    button.addEventListener("click", () => open(game.id, game.title, game.seated));
    list.append(button);
  }
  list.append(...learnButtons());
  list.hidden = false;
  switcher.hidden = true;
  heading.textContent = appName;
  say(found.length ? shell.dataset.choose : shell.dataset.none);
}

// The end screen of a teaching table opened a real game (play.js): it is played here.
shell.addEventListener("opened", (event) => open(event.detail.game, event.detail.title, true));

// A game's board: its fragment fetched once, then play.js keeps it live and takes the turn.
// ``seated``: the player's own board; else the public table, looked on.
async function open(game, title, seated) {
  const base = `s/${session}/g/${game}`;
  const response = await fetch(`${base}/fragment`, { cache: "no-store" });
  if (!response.ok) { say(await response.text()); return; }
  if (board) board.stop();
  document.getElementById("play")?.remove();
  const root = document.createElement("main");
  root.id = "play";
  if (!seated) root.className = "watching";
  root.dataset.game = game;
  root.dataset.fragment = `${base}/fragment`;
  root.dataset.events = `${base}/events`;
  root.dataset.turn = `${base}/turn`;
  root.dataset.poll = `${base}/version`;
  root.innerHTML = await response.text();
  shell.append(root);
  shown = { game, seated };
  if (title) heading.textContent = title;
  list.hidden = true;
  switcher.hidden = false;
  say("");
  board = mount(root);
  document.body.dataset.ready = game;
}

switcher.addEventListener("click", async () => choose(await games()));

async function start() {
  sdk = new DiscordSDK(shell.dataset.client, { disableConsoleLogOverride: true });
  await sdk.ready();
  await signIn();
  const found = await games();
  if (!found.length) { choose(found); return; }
  const first = found[0];
  if (found.length === 1 || first.first) await open(first.id, first.title, first.seated);
  else choose(found);
}

start().catch((error) => {
  say(shell.dataset.failed);
  document.body.dataset.failed = String(error && error.message || error);
});
