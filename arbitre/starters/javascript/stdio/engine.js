// A Tournoyons engine in JavaScript (Node.js) over standard input and output: plays
// TicTacToe, ConnectFour and Rochambeau.
//
// The Arbitre starts it and talks to it one line at a time: each request comes as a line
// on its standard input (the query string an engine over HTTP would get), and the engine
// answers with its move as one line on its standard output. No web server, no port:
//
//   tournoyons-gui play --set ConnectFour --engine cmd:"node engine.js" --engine builtin:random
//
// It needs nothing but Node.js 18 or newer. Your engine is the three functions just below,
// one per Set. Each receives the game as the Arbitre sees it (the board, which player you
// are, the legal moves ...) and returns the move to play; as given, each plays a legal
// move at random. Print whatever you like to standard error (say, console.error): it goes
// to the game's log. Standard output is the Arbitre's: one line per request, nothing else.
"use strict";

const readline = require("node:readline");

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
// The plumbing: a line in, a line out. Nothing below needs changing to play.
// ======================================================================================

// Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
const BOARDS = { TicTacToe: [9, "012"], ConnectFour: [42, "012"] };
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
 * Return the line that answers one request, `query` its query string: the move to play;
 * "OK" to a final call (a Status other than 0: the game is over); an empty line (no move)
 * to a request this engine cannot read, the reason on standard error.
 */
function answer(query) {
  const call = Object.create(null); // no prototype: any parameter name is a plain key
  for (const [name, value] of new URLSearchParams(query)) {
    if (!(name in call)) call[name] = value; // the first of a repeated name counts
  }
  const status = call.Status ?? "0";
  if (status !== "" && status !== "0") {
    // The final call: the game is over.
    const result = Object.hasOwn(RESULTS, status) ? RESULTS[status] : `Status ${status}`;
    say(`${call.Set ?? "?"} game ${call.Game ?? "?"} over: ${result}`);
    return "OK";
  }
  if (!("Referee" in call)) {
    // Every request has one (empty: the answer is this line).
    say("not a move request: no Referee (a final call has a Status)");
    return "";
  }
  const setName = call.Set || guessSet(call);
  if (!Object.hasOwn(PLAYERS, setName)) {
    say(`unknown Set ${JSON.stringify(setName)}: this engine plays ${Object.keys(PLAYERS).join(", ")}`);
    return "";
  }
  const game = readGame(setName, call);
  if (typeof game === "string") {
    say(game);
    return "";
  }
  const value = String(PLAYERS[setName](game)).trim();
  if (!game.moves.includes(value)) {
    say(`warning: ${setName} got ${JSON.stringify(value)} from your function, not one of ${game.moves}`);
  }
  say(`${setName} game ${call.Game ?? "?"} turn ${call.Turn ?? "?"}: played ${value}`);
  return value;
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

/** Return `text` as a number when it is one (a few digits), else 0. */
function number(text) {
  return /^[0-9]{1,9}$/.test(text ?? "") ? Number(text) : 0;
}

/** Write one line of what the engine did to standard error (the game's log). */
function say(line) {
  console.error(line);
}

/**
 * Answer each line of standard input with one line on standard output, until the input
 * ends (the Arbitre closes it at the end of the match).
 */
function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    let value;
    try {
      value = answer(line);
    } catch (error) {
      // A mistake in your function: no move, and the engine goes on.
      console.error(error);
      value = "";
    }
    process.stdout.write(String(value).replace(/\n/g, " ") + "\n");
  });
}

main();
