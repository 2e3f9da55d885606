// A Tournoyons engine in JavaScript (Node.js): plays TicTacToe, ConnectFour and Rochambeau.
//
// Run it with `node engine.js 8001`: its URL is then http://127.0.0.1:8001/ (add an
// address after the port, `node engine.js 8001 0.0.0.0`, to be reached from elsewhere).
// It needs nothing but Node.js 18 or newer (its http module).
//
// Your engine is the three functions just below, one per Set. Each receives the game as
// the Arbitre sees it (the board, which player you are, the legal moves ...) and returns
// the move to play; as given, each plays a legal move at random. Everything under "The
// plumbing" speaks the engine protocol for you: you need not read it to start.
"use strict";

const http = require("node:http");
const https = require("node:https");

// ======================================================================================
// Your engine: one function per Set. Start here.
// ======================================================================================

/**
 * Return the cell to play, "1" to "9" (top left to bottom right, row by row).
 *
 * game.board  9 characters, row by row from the top: "0" empty, "1" a mark of the
 *             first player, "2" of the second.
 * game.me     "1" if you play first, "2" if second: your marks on the board.
 * game.moves  the free cells, such as ["1", "5", "9"].
 * game.last   the opponent's last cell ("" before its first).
 * game.call   every parameter the Arbitre sent, as sent.
 */
function tictactoe(game) {
  return pick(game.moves);
}

/**
 * Return the column to drop your disc in, "A" to "G".
 *
 * game.board  42 characters, 6 rows of 7 cells, the BOTTOM row first: the cell of
 *             column c (0 is "A") and row r (0 is the bottom) is board[r * 7 + c];
 *             "0" empty, "1" a disc of the first player, "2" of the second.
 * game.me     "1" if you play first, "2" if second.
 * game.moves  the columns that are not full, such as ["A", "C", "D"].
 * game.last   the opponent's last column ("" before its first).
 */
function connectfour(game) {
  return pick(game.moves);
}

/**
 * Return your hand: "1" rock, "2" paper, "3" scissors (rock beats scissors, scissors
 * beat paper, paper beats rock; the first to win 5 rounds wins).
 *
 * game.moves  always ["1", "2", "3"].
 * game.last   the opponent's hand in the last round ("" in the first round).
 * game.me     "1" if you are the first player, "2" if second.
 * game.call.Gain1, game.call.Gain2: the first and second player's scores (from round 2).
 */
function rochambeau(game) {
  return pick(game.moves);
}

/** Return one of `list`'s items at random. */
function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

// The Sets this engine plays: the Set's name as the Arbitre sends it -> your function.
const PLAYERS = { TicTacToe: tictactoe, ConnectFour: connectfour, Rochambeau: rochambeau };

// ======================================================================================
// The plumbing: the Tournoyons engine protocol. Nothing below needs changing to play.
// ======================================================================================

// Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
const BOARDS = { TicTacToe: [9, "012"], ConnectFour: [42, "012"] };
// The longest query read (the Sets above need a few hundred characters).
const MAX_QUERY = 16 * 1024;
// The most seconds spent calling the Referee back (and on reading a request).
const CALLBACK_TIMEOUT = 10;
// What the final call's Status means.
const RESULTS = {
  1: "won (first player)",
  2: "won (second player)",
  3: "lost (first player)",
  4: "lost (second player)",
  5: "draw",
  9: "ended by an error that is nobody's fault",
};

/** Return the legal moves of `setName` on `board`. */
function legalMoves(setName, board) {
  if (setName === "TicTacToe") {
    return [...board].flatMap((cell, at) => (cell === "0" ? [String(at + 1)] : []));
  }
  if (setName === "ConnectFour") {
    // A column is open while its top cell (row 5) is empty.
    return [..."ABCDEFG"].filter((letter, column) => board[35 + column] === "0");
  }
  if (setName === "Rochambeau") {
    return ["1", "2", "3"];
  }
  return [];
}

/**
 * Answer one call of the Arbitre, `query` its raw query string: resolve to the HTTP
 * status and text. A move request is answered after calling the Referee back with the
 * move; in tester mode (an empty Referee) the answer is the move alone; a final call
 * (a Status other than 0) only says OK.
 */
async function answer(query) {
  if (query.length > MAX_QUERY) {
    return [414, `query over ${MAX_QUERY} characters`];
  }
  if (!query) {
    return [200, `A Tournoyons engine: it plays ${Object.keys(PLAYERS).join(", ")}.\n`];
  }
  const call = Object.create(null); // no prototype: any parameter name is a plain key
  for (const [name, value] of new URLSearchParams(query)) {
    if (!(name in call)) call[name] = value; // the first of a repeated name counts
  }
  const status = call.Status ?? "0";
  if (status !== "" && status !== "0") {
    // The final call: the game is over, never call back.
    const result = Object.hasOwn(RESULTS, status) ? RESULTS[status] : `Status ${status}`;
    say(`${call.Set ?? "?"} game ${call.Game ?? "?"} over: ${result}`);
    return [200, "OK"];
  }
  if (!("Referee" in call)) {
    return [400, "not a move request: no Referee (a final call has a Status)"];
  }
  const setName = call.Set || guessSet(call);
  if (!Object.hasOwn(PLAYERS, setName)) {
    const plays = Object.keys(PLAYERS).join(", ");
    return [400, `unknown Set ${JSON.stringify(setName)}: this engine plays ${plays}`];
  }
  const game = readGame(setName, call);
  if (typeof game === "string") {
    return [400, game];
  }
  const value = String(PLAYERS[setName](game)).trim();
  if (!game.moves.includes(value)) {
    say(`warning: ${setName} got ${JSON.stringify(value)} from your function, not one of ${game.moves}`);
  }
  const referee = call.Referee;
  if (!referee) {
    return [200, value]; // tester mode: the answer is the move, and nothing else
  }
  if (!/^https?:\/\//.test(referee)) {
    return [400, "the Referee is no http:// or https:// URL"];
  }
  if (!call.Game || !call.MoveId) {
    return [400, "no Game or no MoveId: the Referee could not be told which move this is"];
  }
  const failed = await callBack(referee, call, value, seconds(call));
  const turn = call.Turn ?? "?";
  if (failed) {
    say(`${setName} game ${call.Game} turn ${turn}: ${failed}`);
    return [502, failed];
  }
  say(`${setName} game ${call.Game} turn ${turn}: played ${value}`);
  return [200, "OK"];
}

/**
 * Return the Set of a call that does not name it (the original tester's form), from its
 * Tray: 9 characters TicTacToe, 42 ConnectFour, none Rochambeau.
 */
function guessSet(call) {
  if (!("Tray" in call)) return "Rochambeau";
  return { 9: "TicTacToe", 42: "ConnectFour" }[call.Tray.length] ?? "";
}

/** Return what the Set's function receives (see the functions above), or what is wrong. */
function readGame(setName, call) {
  let board = "";
  if (Object.hasOwn(BOARDS, setName)) {
    const [size, codes] = BOARDS[setName];
    board = call.Tray ?? "";
    if (board === "Init") board = "0".repeat(size); // "nothing played yet"
    if (board.length !== size || [...board].some((code) => !codes.includes(code))) {
      return `the ${setName} Tray is ${size} characters ${[...codes].join(", ")}`;
    }
  }
  const moves = legalMoves(setName, board);
  if (moves.length === 0) return "no legal move on this board";
  const turn = number(call.Turn);
  let me;
  if (turn) {
    me = turn % 2 ? "1" : "2"; // an odd Turn asks the first player, an even one the second
  } else {
    // No Turn: the first player moves when both have as many stones.
    const count = (code) => [...board].filter((cell) => cell === code).length;
    me = count("1") === count("2") ? "1" : "2";
  }
  return { board, me, moves, last: call[me === "1" ? "Move2" : "Move1"] ?? "", turn, call };
}

/**
 * Return how long to wait for the Referee: the call's TimeOut (the Arbitre takes no
 * answer after it), at most CALLBACK_TIMEOUT seconds, at least one.
 */
function seconds(call) {
  return Math.max(1, Math.min(number(call.TimeOut) || CALLBACK_TIMEOUT, CALLBACK_TIMEOUT));
}

/** Return `text` as a number when it is one (a few digits), else 0. */
function number(text) {
  return /^[0-9]{1,9}$/.test(text ?? "") ? Number(text) : 0;
}

/**
 * Call the Referee back with the move: GET <Referee>?Game=..&MoveId=..&Value=..; resolve
 * to "" when it said OK, else to what went wrong. The whole call lasts `timeout` seconds
 * at most.
 */
function callBack(referee, call, value, timeout) {
  const back = new URLSearchParams({ Game: call.Game, MoveId: call.MoveId, Value: value });
  const url = referee + (referee.includes("?") ? "&" : "?") + back;
  return new Promise((resolve) => {
    let request;
    try {
      const client = url.startsWith("https:") ? https : http;
      request = client.get(url, { agent: false }, (reply) => {
        reply.resume(); // its body is not needed
        const code = reply.statusCode;
        resolve(code === 200 ? "" : `the Referee answered ${code} to ${value}`);
      });
    } catch (error) {
      resolve(`could not call the Referee back: ${error.message}`);
      return;
    }
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${timeout} s`));
    }, timeout * 1000);
    request.on("close", () => clearTimeout(timer));
    request.on("error", (error) => resolve(`could not call the Referee back: ${error.message}`));
  });
}

/** Print one line of what the engine did. */
function say(line) {
  console.log(line);
}

/** Serve on the port (and address) given on the command line. */
function main() {
  const [port, host = "127.0.0.1", ...rest] = process.argv.slice(2);
  if (!/^[0-9]{1,5}$/.test(port ?? "") || rest.length) {
    console.error("usage: node engine.js PORT [ADDRESS]   (ADDRESS: 127.0.0.1 by default)");
    process.exit(2);
  }
  const server = http.createServer(async (request, response) => {
    let status, text;
    try {
      const at = request.url.indexOf("?");
      const query = at < 0 ? "" : request.url.slice(at + 1).split("#")[0];
      [status, text] = request.method === "GET" ? await answer(query) : [405, "GET only"];
    } catch (error) {
      // A mistake in your function: answered, and the engine goes on.
      console.error(error);
      [status, text] = [500, "the engine failed: see its output"];
    }
    response.writeHead(status, {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
    });
    response.end(text);
  });
  server.headersTimeout = CALLBACK_TIMEOUT * 1000; // a request must arrive in time
  server.requestTimeout = CALLBACK_TIMEOUT * 1000;
  server.on("error", (error) => {
    console.error(`cannot serve on ${host}:${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(Number(port), host, () => {
    console.log(`engine listening on http://${host}:${port}/ (Ctrl-C stops it)`);
  });
}

main();
