// A Tournoyons engine in Go: plays TicTacToe, ConnectFour and Rochambeau.
//
// Build it and run it on a port:
//
//	go build -o engine engine.go
//	./engine 8001
//
// Its URL is then http://127.0.0.1:8001/ (add an address after the port, `./engine 8001
// 0.0.0.0`, to be reached from elsewhere). It needs nothing but Go 1.19 or newer and its
// standard library (net/http).
//
// Your engine is the three functions just below, one per Set. Each receives the game as
// the Arbitre sees it (the board, which player you are, the legal moves ...) and returns
// the move to play; as given, each plays a legal move at random. Everything under "The
// plumbing" speaks the engine protocol for you: you need not read it to start.
package main

import (
	"fmt"
	"io"
	"log"
	"math/rand"
	"net/http"
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
// The plumbing: the Tournoyons engine protocol. Nothing below needs changing to play.
// ======================================================================================

// boards: each board Set's Tray, its length and the characters it holds.
var boards = map[string]struct {
	size  int
	codes string
}{"TicTacToe": {9, "012"}, "ConnectFour": {42, "012"}}

// The longest query read (the Sets above need a few hundred characters), and the most
// seconds spent calling the Referee back (and on reading a request).
const (
	maxQuery        = 16 * 1024
	callbackTimeout = 10
)

// results: what the final call's Status means.
var results = map[string]string{
	"1": "won (first player)",
	"2": "won (second player)",
	"3": "lost (first player)",
	"4": "lost (second player)",
	"5": "draw",
	"9": "ended by an error that is nobody's fault",
}

var (
	digits  = regexp.MustCompile(`^[0-9]{1,9}$`)
	webURL  = regexp.MustCompile(`^https?://`)
	setList = "TicTacToe, ConnectFour, Rochambeau"
)

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

// answer answers one call of the Arbitre, query its raw query string: it returns the HTTP
// status and text. A move request is answered after calling the Referee back with the
// move; in tester mode (an empty Referee) the answer is the move alone; a final call (a
// Status other than 0) only says OK.
func answer(query string) (int, string) {
	if len(query) > maxQuery {
		return 414, fmt.Sprintf("query over %d characters", maxQuery)
	}
	if query == "" {
		return 200, "A Tournoyons engine: it plays " + setList + ".\n"
	}
	call := readQuery(query)
	if status, found := call["Status"]; found && status != "" && status != "0" {
		// The final call: the game is over, never call back.
		result, known := results[status]
		if !known {
			result = "Status " + status
		}
		say(fmt.Sprintf("%s game %s over: %s", or(call, "Set"), or(call, "Game"), result))
		return 200, "OK"
	}
	referee, asked := call["Referee"]
	if !asked {
		return 400, "not a move request: no Referee (a final call has a Status)"
	}
	setName := call["Set"]
	if setName == "" {
		setName = guessSet(call)
	}
	player, plays := players[setName]
	if !plays {
		return 400, fmt.Sprintf("unknown Set %q: this engine plays %s", setName, setList)
	}
	game, wrong := readGame(setName, call)
	if wrong != "" {
		return 400, wrong
	}
	value := strings.TrimSpace(player(game))
	if !contains(game.Moves, value) {
		say(fmt.Sprintf("warning: %s got %q from your function, not one of %v", setName, value, game.Moves))
	}
	if referee == "" {
		return 200, value // tester mode: the answer is the move, and nothing else
	}
	if !webURL.MatchString(referee) {
		return 400, "the Referee is no http:// or https:// URL"
	}
	if call["Game"] == "" || call["MoveId"] == "" {
		return 400, "no Game or no MoveId: the Referee could not be told which move this is"
	}
	failed := callBack(referee, call, value, seconds(call))
	if failed != "" {
		say(fmt.Sprintf("%s game %s turn %s: %s", setName, call["Game"], or(call, "Turn"), failed))
		return 502, failed
	}
	say(fmt.Sprintf("%s game %s turn %s: played %s", setName, call["Game"], or(call, "Turn"), value))
	return 200, "OK"
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

// seconds returns how long to wait for the Referee: the call's TimeOut (the Arbitre takes
// no answer after it), at most callbackTimeout seconds, at least one.
func seconds(call map[string]string) int {
	timeout := number(call["TimeOut"])
	if timeout == 0 || timeout > callbackTimeout {
		timeout = callbackTimeout
	}
	return timeout
}

// number returns text as a number when it is one (a few digits), else 0.
func number(text string) int {
	if !digits.MatchString(text) {
		return 0
	}
	value, _ := strconv.Atoi(text)
	return value
}

// callBack calls the Referee back with the move: GET <Referee>?Game=..&MoveId=..&Value=..;
// it returns "" when the Referee said OK, else what went wrong. The whole call lasts
// timeout seconds at most.
func callBack(referee string, call map[string]string, value string, timeout int) string {
	back := url.Values{}
	back.Set("Game", call["Game"])
	back.Set("MoveId", call["MoveId"])
	back.Set("Value", value)
	separator := "?"
	if strings.Contains(referee, "?") {
		separator = "&"
	}
	client := http.Client{
		Timeout: time.Duration(timeout) * time.Second,
		// A redirect is the Referee's answer, not a place to follow.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	response, err := client.Get(referee + separator + back.Encode())
	if err != nil {
		return "could not call the Referee back: " + err.Error()
	}
	defer response.Body.Close()
	io.Copy(io.Discard, io.LimitReader(response.Body, 64*1024))
	if response.StatusCode != 200 {
		return fmt.Sprintf("the Referee answered %d to %s", response.StatusCode, value)
	}
	return ""
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

// say prints one line of what the engine did.
func say(line string) {
	fmt.Println(line)
}

// serve answers each GET with answer; a panic in your function is answered 500 and the
// engine goes on.
func serve(writer http.ResponseWriter, request *http.Request) {
	status, text := 405, "GET only"
	if request.Method == http.MethodGet {
		status, text = safely(request.URL.RawQuery)
	}
	writer.Header().Set("Content-Type", "text/plain; charset=utf-8")
	writer.Header().Set("Content-Length", strconv.Itoa(len(text)))
	writer.WriteHeader(status)
	io.WriteString(writer, text)
}

func safely(query string) (status int, text string) {
	defer func() {
		if failure := recover(); failure != nil {
			fmt.Fprintf(os.Stderr, "panic: %v\n%s", failure, debug.Stack())
			status, text = 500, "the engine failed: see its output"
		}
	}()
	return answer(query)
}

// main serves on the port (and address) given on the command line.
func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 || !regexp.MustCompile(`^[0-9]{1,5}$`).MatchString(os.Args[1]) {
		fmt.Fprintln(os.Stderr, "usage: ./engine PORT [ADDRESS]   (ADDRESS: 127.0.0.1 by default)")
		os.Exit(2)
	}
	rand.Seed(time.Now().UnixNano())
	host := "127.0.0.1"
	if len(os.Args) == 3 {
		host = os.Args[2]
	}
	address := host + ":" + os.Args[1]
	if strings.Contains(host, ":") {
		address = "[" + host + "]:" + os.Args[1]
	}
	server := &http.Server{
		Addr:              address,
		Handler:           http.HandlerFunc(serve),
		ReadHeaderTimeout: callbackTimeout * time.Second, // a request must arrive in time
		MaxHeaderBytes:    64 * 1024,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	fmt.Printf("engine listening on http://%s/ (Ctrl-C stops it)\n", address)
	if err := server.ListenAndServe(); err != nil {
		fmt.Fprintf(os.Stderr, "cannot serve on %s: %v\n", address, err)
		os.Exit(1)
	}
}
