// The tournament verifier: the pairing rules of core/game/tournament (draw.py, layout.py,
// values.py, standings.py, swiss.py, knockout.py, verify.py) recomputed in the browser with WebCrypto,
// with the same verdict as `shutbox verify 'U1|...'` (bot/commands/verify.py). Any change to
// those rules must be made here too: the browser tests compare both over many tournaments.
"use strict";

const ShutboxTournament = (() => {
  const VERSION = "U1";
  const SEED = /^[0-9a-f]{64}$/;
  const DIGITS = /^[0-9]+$/;
  const TOTAL = /^-?[0-9]+$/;
  const STATUSES = ["open", "running", "finished", "cancelled"];
  const KINDS = ["swiss", "knockout"];
  const TABLE_SIZES = [2, 3, 4];
  const WIN_POINTS = 2;
  const SHARED_WIN_POINTS = 1;
  const BYE_POINTS = 2;
  const NO_AVERAGE = [10 ** 9, 1]; // a player who only had byes sorts after every average
  const SEARCH_BUDGET = 20000; // swiss.py's: tables tried a round, over every choice of bye
  const encoder = new TextEncoder();

  const decode = (text) => decodeURIComponent(text); // a broken escape throws: not a record

  function whole(text, pattern = DIGITS) {
    if (!pattern.test(text)) throw new Error(`not a number: ${text}`);
    return Number(text);
  }

  // A table `id*id=winner@total*total` (the result only once its match is over).
  function parseTable(number, text) {
    const at = text.indexOf("=");
    const seats = (at < 0 ? text : text.slice(0, at)).split("*").map(decode);
    const result = at < 0 ? "" : text.slice(at + 1);
    if (!result) return { number, seats, result: null };
    const [winnersText, totalsText, ...extra] = result.split("@");
    if (totalsText === undefined || extra.length) throw new Error("a result is winners@totals");
    const winners = winnersText.split("*").map(decode);
    const totals = totalsText.split("*").map((n) => whole(n, TOTAL));
    if (!winners.every((w) => seats.includes(w)) || totals.length !== seats.length) {
      throw new Error(`table ${number}: winners sit at the table, one total a seat`);
    }
    return { number, seats, result: { winners, totals } };
  }

  // Every seat, winner and bye is an entry (the record names players by their entry number).
  function named(players, rounds) {
    const entered = new Set(players);
    return rounds.every((round) => (!round.bye || entered.has(round.bye)) && round.tables.every(
      (table) => table.seats.every((p) => entered.has(p))));
  }

  function parseRound(number, text) {
    const parts = text.split("!");
    if (parts.length !== 2) throw new Error("a round is bye!tables");
    const tables = parts[1].split(";").map((table, i) => parseTable(i + 1, table));
    return { number, bye: decode(parts[0]), tables };
  }

  // The record as text_form.from_text reads it (the settings the pairing needs, checked as
  // Settings checks them); null when it is not one.
  function parse(text) {
    try {
      const parts = text.split("|");
      if (parts.length < 8 || parts.length > 9 || parts[0] !== VERSION) return null;
      const [, id, status, settings, seed, commitment, entries, rounds, leftText = ""] = parts;
      const fields = settings.split(",");
      if (fields.length !== 9 || !STATUSES.includes(status)) return null;
      const [name, kind, roundsText, , , sizeText, feeText, split, startsText] = fields;
      const size = whole(sizeText);
      const swissRounds = whole(roundsText);
      if (!KINDS.includes(kind) || !TABLE_SIZES.includes(size) || !decode(name)) return null;
      if (kind === "swiss" && !(swissRounds >= 1 && swissRounds <= 10)) return null;
      whole(feeText);
      whole(startsText);
      split.split("+").forEach((share) => whole(share));
      const players = entries ? entries.split(",").map((entry) => {
        const pair = entry.split(":");
        if (pair.length !== 2) throw new Error("an entry is id:name");
        return decode(pair[0]);
      }) : [];
      const played = rounds ? rounds.split("/").map((r, i) => parseRound(i + 1, r)) : [];
      if (!named(players, played)) return null;
      // Players who left the server after the start: (player, rounds paired by then).
      const left = leftText ? leftText.split(",").map((item) => {
        const pair = item.split(":");
        if (pair.length !== 2) throw new Error("a player out is id:rounds");
        return [decode(pair[0]), whole(pair[1], TOTAL)];
      }) : [];
      return { id: decode(id), kind, size, seed, commitment, players, rounds: played, left };
    } catch (error) {
      return null;
    }
  }

  const hexBytes = (hex) => Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));
  const toHex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

  // draw.py: HMAC-SHA256(seed, "id:round:entry"), entry a player's place in the order of entry.
  async function drawsOf(tournament) {
    const key = await crypto.subtle.importKey(
      "raw", hexBytes(tournament.seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const draws = [];
    for (let round = 0; round <= tournament.rounds.length + 1; round += 1) {
      const row = new Map();
      for (const [index, player] of tournament.players.entries()) {
        const message = encoder.encode(`${tournament.id}:${round}:${index + 1}`);
        if (!row.has(player)) row.set(player, toHex(await crypto.subtle.sign("HMAC", key, message)));
      }
      draws.push(row);
    }
    return (round, player) => draws[round].get(player);
  }

  const compare = (a, b) => (a < b ? -1 : Number(a > b));

  // layout.py: full tables first; a remainder of one is a bye, a larger one a smaller table.
  function tableSizes(players, size) {
    const rest = players % size;
    return { sizes: [...Array(Math.floor(players / size)).fill(size), ...(rest >= 2 ? [rest] : [])], bye: rest === 1 };
  }

  const fill = (ordered, sizes) => sizes.map((size, i) => {
    const start = sizes.slice(0, i).reduce((sum, n) => sum + n, 0);
    return ordered.slice(start, start + size);
  });

  // values.py's paired_in: the players round `number` may seat, all but those out before it.
  function pairedIn(tournament, number) {
    const gone = new Set(tournament.left.filter(([, paired]) => paired < number).map(([p]) => p));
    return tournament.players.filter((p) => !gone.has(p));
  }

  // knockout.py: the best of each table goes on (of tied winners, the smaller draw), and the bye.
  function goingOn(draw, number, table) {
    return table.result.winners.reduce((best, p) => (draw(number, p) < draw(number, best) ? p : best));
  }

  function knockoutRound(tournament, draw, before, number) {
    let players = tournament.players;
    if (before.length) {
      const last = before[before.length - 1];
      players = last.tables.map((table) => goingOn(draw, last.number, table));
      if (last.bye) players.push(last.bye);
      const playing = pairedIn(tournament, last.number + 1); // a winner who left goes no further
      players = players.filter((p) => playing.includes(p));
    }
    const ordered = [...players].sort((a, b) => compare(draw(number, a), draw(number, b)));
    const { sizes, bye } = tableSizes(ordered.length, tournament.size);
    return { tables: fill(ordered, sizes), bye: bye ? ordered[ordered.length - 1] : "" };
  }

  // standings.py: points, the opponents' points (each meeting), the average score per match.
  function swissLines(tournament, before) {
    const finished = before.filter((r) => r.tables.every((t) => t.result));
    const lines = new Map(tournament.players.map((p) => [p, { points: 0, opponents: 0, played: 0, total: 0 }]));
    for (const round of finished) {
      if (round.bye) lines.get(round.bye).points += BYE_POINTS;
      for (const { seats, result } of round.tables) {
        for (const player of seats) {
          if (!result.winners.includes(player)) continue;
          lines.get(player).points += result.winners.length === 1 ? WIN_POINTS : SHARED_WIN_POINTS;
        }
      }
    }
    for (const [player, line] of lines) {
      for (const round of finished) {
        for (const { seats, result } of round.tables) {
          if (!seats.includes(player)) continue;
          line.played += 1;
          line.total += result.totals[seats.indexOf(player)];
          for (const other of seats) if (other !== player) line.opponents += lines.get(other).points;
        }
      }
    }
    return lines;
  }

  const average = (line) => (line.played ? [line.total, line.played] : NO_AVERAGE);

  function ranking(tournament, draw, before, number) {
    const lines = swissLines(tournament, before);
    return pairedIn(tournament, number).sort((a, b) => {
      const x = lines.get(a);
      const y = lines.get(b);
      const [xn, xd] = average(x);
      const [yn, yd] = average(y);
      return (y.points - x.points) || (y.opponents - x.opponents)
        || Math.sign(xn * yd - yn * xd) || compare(draw(number, a), draw(number, b));
    });
  }

  const pairKey = (a, b) => JSON.stringify(a < b ? [a, b] : [b, a]);

  function* combinations(n, k, start = 0, chosen = []) {
    if (chosen.length === k) {
      yield chosen;
      return;
    }
    for (let i = start; i < n; i += 1) yield* combinations(n, k, i + 1, [...chosen, i]);
  }

  // swiss.py's _Search: depth first over seatings in rank order, bounded by the best found.
  function search(met, sizes) {
    const state = { budget: SEARCH_BUDGET, found: { repeats: 2 ** 30, tables: [] } };
    const repeatsOf = (table) => {
      let count = 0;
      for (let i = 0; i < table.length; i += 1) {
        for (let j = i + 1; j < table.length; j += 1) if (met.has(pairKey(table[i], table[j]))) count += 1;
      }
      return count;
    };
    const seat = (left, tables, repeats) => {
      if (repeats >= state.found.repeats || state.found.repeats === 0) return;
      if (!left.length) {
        state.found = { repeats, tables: [...tables] };
        return;
      }
      const sizesLeft = [...sizes];
      for (const table of tables) sizesLeft.splice(sizesLeft.indexOf(table.length), 1);
      for (const size of [...new Set(sizesLeft)].sort((a, b) => b - a)) {
        const [head, ...others] = left;
        for (const mates of combinations(others.length, size - 1)) {
          if ((state.budget <= 0 && state.found.tables.length) || state.found.repeats === 0) return;
          state.budget -= 1;
          const table = [head, ...mates.map((i) => others[i])];
          const cost = repeats + repeatsOf(table);
          if (cost < state.found.repeats) {
            seat(others.filter((_, i) => !mates.includes(i)), [...tables, table], cost);
          }
        }
      }
    };
    return (seated) => {
      state.found = { repeats: 2 ** 30, tables: [] };
      seat(seated, [], 0);
      return state.found;
    };
  }

  function swissRound(tournament, draw, before, number) {
    const ranked = ranking(tournament, draw, before, number);
    const { sizes, bye } = tableSizes(ranked.length, tournament.size);
    const met = new Set();
    for (const round of before) {
      for (const { seats } of round.tables) {
        for (let i = 0; i < seats.length; i += 1) {
          for (let j = i + 1; j < seats.length; j += 1) met.add(pairKey(seats[i], seats[j]));
        }
      }
    }
    const hadBye = new Set(before.map((r) => r.bye));
    const lowestFirst = [...ranked].reverse();
    const candidates = bye ? [...lowestFirst.filter((p) => !hadBye.has(p)), ...lowestFirst.filter((p) => hadBye.has(p))] : [""];
    const best = search(met, sizes);
    let chosen = null;
    for (const candidate of candidates) {
      const found = best(ranked.filter((p) => p !== candidate));
      const cost = [found.repeats, hadBye.has(candidate) ? 1 : 0];
      if (chosen === null || cost[0] < chosen.cost[0] || (cost[0] === chosen.cost[0] && cost[1] < chosen.cost[1])) {
        chosen = { cost, bye: candidate, tables: found.tables };
      }
      if (cost[0] === 0 && cost[1] === 0) break;
    }
    return { tables: chosen.tables, bye: chosen.bye };
  }

  function sameSeating(paired, played) {
    return paired.bye === played.bye && paired.tables.length === played.tables.length
      && paired.tables.every((seats, i) => JSON.stringify(seats) === JSON.stringify(played.tables[i].seats));
  }

  // verify.py's pairing_faults: each fault as {key, round}; none when everything checks out.
  async function faults(tournament) {
    if (!SEED.test(tournament.seed)) return [{ key: "seed" }];
    const digest = toHex(await crypto.subtle.digest("SHA-256", hexBytes(tournament.seed)));
    if (digest !== tournament.commitment) return [{ key: "commitment" }];
    const draw = await drawsOf(tournament);
    const found = [];
    for (const [index, played] of tournament.rounds.entries()) {
      const before = tournament.rounds.slice(0, index);
      const pair = tournament.kind === "knockout" ? knockoutRound : swissRound;
      const paired = pair(tournament, draw, before, index + 1);
      if (!sameSeating(paired, played)) found.push({ key: "round", round: played.number });
    }
    return found;
  }

  // The verdict of `shutbox verify --json` for a record's text (each fault a catalog key and
  // its round); null when it is not a record.
  async function verify(text) {
    const tournament = parse(text.trim());
    if (tournament === null) return null;
    const found = await faults(tournament);
    return { ok: !found.length, rounds: tournament.rounds.length, faults: found };
  }

  return { parse, verify };
})();

globalThis.ShutboxTournament = ShutboxTournament;
