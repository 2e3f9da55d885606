// A Tournoyons engine in Go over standard input and output: plays TicTacToe, ConnectFour
// and Rochambeau.
//
// The Arbitre starts it and talks to it one line at a time: each request comes as a line
// on its standard input (the query string an engine over HTTP would get), and the engine
// answers with its move as one line on its standard output. No web server, no port:
//
//	go build -o engine engine.go
//	tournoyons-gui play --set ConnectFour --engine cmd:./engine --engine builtin:random
//
// It needs nothing but Go 1.19 or newer and its standard library. Your engine is the three
// functions just below, one per Set. Each receives the game as the Arbitre sees it (the
// board, which player you are, the legal moves ...) and returns the move to play; as
// given, each plays a legal move at random. Print whatever you like to standard error
// (say): it goes to the game's log. Standard output is the Arbitre's: one line per
// request, nothing else.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// ======================================================================================
// Your engine: one function per Set. Start here.
// ======================================================================================

// Game is what each function receives: the position as the Arbitre sent it.
type Game struct {
	Board string            // the board (see each Set's function); "" in Rochambeau
	Me    string            // "1" if you play first, "2" if second
	Moves []string          // the legal moves
	Last  string            // the opponent's last move ("" before its first)
	Turn  int               // the Turn: odd when you play first, even when second
	Call  map[string]string // every parameter the Arbitre sent, as sent
}

// tictactoe returns the cell to play, "1" to "9" (top left to bottom right, row by row).
//
// game.Board  9 characters, row by row from the top: "0" empty, "1" a mark of the first
// player, "2" of the second. game.Me: "1" if you play first, "2" if second: your marks on
// the board. game.Moves: the free cells, such as ["1", "5", "9"]. game.Last: the
// opponent's last cell ("" before its first). game.Call: every parameter as sent.
func tictactoe(game Game) string {
	return game.Moves[rand.Intn(len(game.Moves))]
}

// connectfour returns the column to drop your disc in, "A" to "G".
//
// game.Board  42 characters, 6 rows of 7 cells, the BOTTOM row first: the cell of column
// c (0 is "A") and row r (0 is the bottom) is Board[r*7+c]; "0" empty, "1" a disc of the
// first player, "2" of the second. game.Me: "1" if you play first, "2" if second.
// game.Moves: the columns that are not full, such as ["A", "C", "D"]. game.Last: the
// opponent's last column ("" before its first).
func connectfour(game Game) string {
	return game.Moves[rand.Intn(len(game.Moves))]
}

// rochambeau returns your hand: "1" rock, "2" paper, "3" scissors (rock beats scissors,
// scissors beat paper, paper beats rock; the first to win 5 rounds wins).
//
// game.Moves: always ["1", "2", "3"]. game.Last: the opponent's hand in the last round
// ("" in the first round). game.Me: "1" if you are the first player, "2" if second.
// game.Call["Gain1"], game.Call["Gain2"]: the first and second player's scores (from
// round 2).
func rochambeau(game Game) string {
	return game.Moves[rand.Intn(len(game.Moves))]
}

// players: the Sets this engine plays, the Set's name as the Arbitre sends it -> your
// function.
var players = map[string]func(Game) string{
	"TicTacToe":   tictactoe,
	"ConnectFour": connectfour,
	"Rochambeau":  rochambeau,
}

// ======================================================================================
// The plumbing: a line in, a line out. Nothing below needs changing to play.
// ======================================================================================

// boards: each board Set's Tray, its length and the characters it holds.
var boards = map[string]struct {
	size  int
	codes string
}{"TicTacToe": {9, "012"}, "ConnectFour": {42, "012"}}

// results: what the final call's Status means.
var results = map[string]string{
	"1": "won (first player)",
	"2": "won (second player)",
	"3": "lost (first player)",
	"4": "lost (second player)",
	"5": "draw",
	"9": "ended by an error that is nobody's fault",
}

var digits = regexp.MustCompile(`^[0-9]{1,9}$`)

// legalMoves returns the legal moves of setName on board.
func legalMoves(setName, board string) []string {
	moves := []string{}
	switch setName {
	case "TicTacToe":
		for cell := 0; cell < 9; cell++ {
			if board[cell] == '0' {
				moves = append(moves, strconv.Itoa(cell+1))
			}
		}
	case "ConnectFour": // a column is open while its top cell (row 5) is empty
		for column, letter := range "ABCDEFG" {
			if board[35+column] == '0' {
				moves = append(moves, string(letter))
			}
		}
	case "Rochambeau":
		moves = []string{"1", "2", "3"}
	}
	return moves
}

// answer returns the line that answers one request, query its query string: the move to
// play; "OK" to a final call (a Status other than 0: the game is over); an empty line (no
// move) to a request this engine cannot read, the reason on standard error.
func answer(query string) string {
	call := readQuery(query)
	status, found := call["Status"]
	if found && status != "" && status != "0" { // the final call: the game is over
		result, known := results[status]
		if !known {
			result = "Status " + status
		}
		say(fmt.Sprintf("%s game %s over: %s", or(call, "Set"), or(call, "Game"), result))
		return "OK"
	}
	if _, asked := call["Referee"]; !asked { // every request has one (empty: the answer is this line)
		say("not a move request: no Referee (a final call has a Status)")
		return ""
	}
	setName := call["Set"]
	if setName == "" {
		setName = guessSet(call)
	}
	player, plays := players[setName]
	if !plays {
		say(fmt.Sprintf("unknown Set %q: this engine plays TicTacToe, ConnectFour, Rochambeau", setName))
		return ""
	}
	game, wrong := readGame(setName, call)
	if wrong != "" {
		say(wrong)
		return ""
	}
	value := strings.TrimSpace(player(game))
	if !contains(game.Moves, value) {
		say(fmt.Sprintf("warning: %s got %q from your function, not one of %v", setName, value, game.Moves))
	}
	say(fmt.Sprintf("%s game %s turn %s: played %s", setName, or(call, "Game"), or(call, "Turn"), value))
	return value
}

// readQuery returns the parameters of a raw query string, by name (the first of a
// repeated name counts); a part that is no percent-encoding is left out.
func readQuery(query string) map[string]string {
	call := map[string]string{}
	for _, pair := range strings.Split(query, "&") {
		if pair == "" {
			continue
		}
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err1 := url.QueryUnescape(rawName)
		value, err2 := url.QueryUnescape(rawValue)
		if err1 != nil || err2 != nil {
			continue
		}
		if _, seen := call[name]; !seen {
			call[name] = value
		}
	}
	return call
}

// guessSet returns the Set of a call that does not name it (the original tester's form),
// from its Tray: 9 characters TicTacToe, 42 ConnectFour, none Rochambeau.
func guessSet(call map[string]string) string {
	tray, found := call["Tray"]
	if !found {
		return "Rochambeau"
	}
	return map[int]string{9: "TicTacToe", 42: "ConnectFour"}[len(tray)]
}

// readGame returns what the Set's function receives (see the functions above), or what
// is wrong with the call.
func readGame(setName string, call map[string]string) (Game, string) {
	board := ""
	if shape, found := boards[setName]; found {
		board = call["Tray"]
		if board == "Init" { // "nothing played yet"
			board = strings.Repeat("0", shape.size)
		}
		if len(board) != shape.size || strings.Trim(board, shape.codes) != "" {
			return Game{}, fmt.Sprintf("the %s Tray is %d characters %s", setName, shape.size,
				strings.Join(strings.Split(shape.codes, ""), ", "))
		}
	}
	moves := legalMoves(setName, board)
	if len(moves) == 0 {
		return Game{}, "no legal move on this board"
	}
	turn := number(call["Turn"])
	me := "2"
	if turn > 0 { // an odd Turn asks the first player, an even one the second
		if turn%2 == 1 {
			me = "1"
		}
	} else if strings.Count(board, "1") == strings.Count(board, "2") {
		me = "1" // no Turn: the first player moves when both have as many stones
	}
	last := call["Move1"]
	if me == "1" {
		last = call["Move2"]
	}
	return Game{Board: board, Me: me, Moves: moves, Last: last, Turn: turn, Call: call}, ""
}

// number returns text as a number when it is one (a few digits), else 0.
func number(text string) int {
	if !digits.MatchString(text) {
		return 0
	}
	value, _ := strconv.Atoi(text)
	return value
}

func contains(list []string, item string) bool {
	for _, each := range list {
		if each == item {
			return true
		}
	}
	return false
}

func or(call map[string]string, name string) string {
	if value, found := call[name]; found {
		return value
	}
	return "?"
}

// say writes one line of what the engine did to standard error (the game's log).
func say(line string) {
	fmt.Fprintln(os.Stderr, line)
}

// safely returns answer(line), or "" when your function panics (its trace on standard
// error): no move, and the engine goes on.
func safely(line string) (value string) {
	defer func() {
		if failure := recover(); failure != nil {
			say(fmt.Sprintf("panic: %v\n%s", failure, debug.Stack()))
			value = ""
		}
	}()
	return answer(line)
}

// main answers each line of standard input with one line on standard output, until the
// input ends (the Arbitre closes it at the end of the match).
func main() {
	rand.Seed(time.Now().UnixNano())
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 64*1024), 1024*1024)
	out := bufio.NewWriter(os.Stdout)
	for lines.Scan() {
		value := safely(strings.TrimRight(lines.Text(), "\r"))
		out.WriteString(strings.ReplaceAll(value, "\n", " ") + "\n")
		out.Flush()
	}
}
