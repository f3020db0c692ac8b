// The fair-dice verifier: the scheme hmac-sha256-v1 of core/game/dice.py, recomputed with
// WebCrypto, with the same verdict as `shutbox verify` (bot/commands/verify.py).
"use strict";

const SCHEME = "hmac-sha256-v1";
const ACCEPT_BELOW = 252; // 42 * 6: bytes 252..255 are skipped, so every face is equally likely
const SEED = /^[0-9a-f]{64}$/;
const encoder = new TextEncoder();

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function isText(value) {
  return typeof value === "string";
}

function isRoll(value) {
  return Array.isArray(value) && value.every((die) => typeof die === "number" && Number.isInteger(die));
}

// The record as MatchRecord.from_json reads it, or null when it is not one.
function parseRecord(text) {
  let data;
  try {
    // A number written with a point or an exponent (6.0, 6e0) is a float to Python's json,
    // which the command line refuses in a roll: keep it apart so that isRoll refuses it too.
    data = JSON.parse(text, (key, value, context) =>
      typeof value === "number" && context && /[.eE]/.test(context.source) ? { float: value } : value);
  } catch (error) {
    return null;
  }
  if (data === null || typeof data !== "object" || data.scheme !== SCHEME) return null;
  const { commitment, server_seed: serverSeed, client_seed: clientSeed, rolls } = data;
  if (![commitment, serverSeed, clientSeed].every(isText)) return null;
  if (!Array.isArray(rolls) || !rolls.every(isRoll)) return null;
  return { commitment, serverSeed, clientSeed, rolls };
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function toHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The `count` dice of roll call `nonce`: HMAC blocks "client:nonce", then "client:nonce:r".
async function fairRoll(key, clientSeed, nonce, count) {
  const dice = [];
  for (let round = 0; dice.length < count; round += 1) {
    const message = round ? `${clientSeed}:${nonce}:${round}` : `${clientSeed}:${nonce}`;
    const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
    for (const byte of block) {
      if (byte < ACCEPT_BELOW) dice.push((byte % 6) + 1);
      if (dice.length === count) break;
    }
  }
  return dice;
}

function same(a, b) {
  return a.length === b.length && a.every((die, i) => die === b[i]);
}

function shownDice(dice) {
  return dice.length ? dice.join("-") : "nothing";
}

// Every roll checked; `reason` and `index` as verify_record gives them (the first problem).
async function verify(record) {
  if (!SEED.test(record.serverSeed)) return { ok: false, reason: "bad_seed", rolls: [] };
  const seed = hexBytes(record.serverSeed);
  const digest = toHex(await crypto.subtle.digest("SHA-256", seed));
  const committed = digest === record.commitment.toLowerCase();
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const rolls = [];
  for (const [index, actual] of record.rolls.entries()) {
    const expected = await fairRoll(key, record.clientSeed, index, Math.max(1, actual.length));
    rolls.push({ actual, expected, ok: committed && same(actual, expected) });
  }
  if (!committed) return { ok: false, reason: "commitment_mismatch", rolls };
  const index = rolls.findIndex((roll) => !roll.ok);
  if (index >= 0) return { ok: false, reason: "roll_mismatch", index, rolls };
  return { ok: true, reason: "ok", rolls };
}

function verdictText(form, result, record) {
  const texts = form.dataset;
  if (result.ok) return fill(texts.ok, { count: record.rolls.length });
  if (result.reason === "bad_seed") return texts.badSeed;
  if (result.reason === "commitment_mismatch") return texts.commitmentMismatch;
  const roll = result.rolls[result.index];
  return fill(texts.rollMismatch, {
    roll: result.index + 1, nonce: result.index, actual: shownDice(roll.actual), expected: shownDice(roll.expected),
  });
}

function showRolls(form, rolls) {
  const table = document.getElementById("rolls");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  rolls.forEach((roll, index) => {
    const row = body.insertRow();
    row.className = roll.ok ? "ok" : "bad";
    row.dataset.verified = roll.ok ? "yes" : "no";
    for (const text of [String(index + 1), shownDice(roll.actual), shownDice(roll.expected)]) {
      row.insertCell().textContent = text;
    }
    row.insertCell().textContent = roll.ok ? `✓ ${form.dataset.okRoll}` : `✗ ${form.dataset.badRoll}`;
  });
  table.hidden = rolls.length === 0;
}

function showSeeds(record) {
  document.getElementById("commitment").textContent = record.commitment;
  document.getElementById("server-seed").textContent = record.serverSeed;
  document.getElementById("client-seed").textContent = record.clientSeed;
  document.getElementById("seeds").hidden = false;
}

function say(text, ok) {
  const verdict = document.getElementById("verdict");
  verdict.textContent = text;
  verdict.className = `verdict ${ok ? "ok" : "bad"}`;
  verdict.dataset.ok = ok ? "yes" : "no";
}

// A tournament's record (U1|...): its seed, then every round's pairing (verify_tournament.js).
async function checkTournament(form, text) {
  const texts = form.dataset;
  const result = await globalThis.ShutboxTournament.verify(text);
  if (result === null) {
    say(texts.tournamentNotRecord, false);
    return;
  }
  const named = { seed: texts.tournamentSeed, commitment: texts.tournamentCommitment, round: texts.tournamentRound };
  const faults = result.faults.map((fault) => fill(named[fault.key], fault)).join("; ");
  say(result.ok ? fill(texts.tournamentOk, { rounds: result.rounds }) : fill(texts.tournamentFailed, { faults }), result.ok);
}

async function check(form) {
  document.getElementById("seeds").hidden = true;
  document.getElementById("rolls").hidden = true;
  if (!globalThis.crypto || !crypto.subtle) {
    say(form.dataset.noCrypto, false);
    return;
  }
  const text = document.getElementById("record").value.trim();
  if (text.startsWith("U1|")) {
    await checkTournament(form, text);
    return;
  }
  const record = parseRecord(text);
  if (record === null) {
    say(form.dataset.notRecord, false);
    return;
  }
  const result = await verify(record);
  showSeeds(record);
  showRolls(form, result.rolls);
  say(verdictText(form, result, record), result.ok);
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("verifier");
  if (!form) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    check(form);
  });
  if (document.getElementById("record").value.trim()) check(form);
});
