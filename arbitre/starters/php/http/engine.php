<?php
// A Tournoyons engine in PHP: plays TicTacToe, ConnectFour and Rochambeau.
//
// Run it with `php -S 127.0.0.1:8001 engine.php`: its URL is then http://127.0.0.1:8001/
// (`php -S 0.0.0.0:8001 engine.php` to be reached from elsewhere). It needs nothing but
// PHP 7.4 or newer and its built-in web server; it also runs as a page of any PHP host.
//
// Your engine is the three functions just below, one per Set. Each receives the game as
// the Arbitre sees it (the board, which player you are, the legal moves ...) and returns
// the move to play; as given, each plays a legal move at random. Everything under "The
// plumbing" speaks the engine protocol for you: you need not read it to start.

declare(strict_types=1);

// ======================================================================================
// Your engine: one function per Set. Start here.
// ======================================================================================

/**
 * Return the cell to play, "1" to "9" (top left to bottom right, row by row).
 *
 * $game['board']  9 characters, row by row from the top: "0" empty, "1" a mark of the
 *                 first player, "2" of the second.
 * $game['me']     "1" if you play first, "2" if second: your marks on the board.
 * $game['moves']  the free cells, such as ["1", "5", "9"].
 * $game['last']   the opponent's last cell ("" before its first).
 * $game['call']   every parameter the Arbitre sent, as sent.
 */
function tictactoe(array $game): string
{
    return pick($game['moves']);
}

/**
 * Return the column to drop your disc in, "A" to "G".
 *
 * $game['board']  42 characters, 6 rows of 7 cells, the BOTTOM row first: the cell of
 *                 column c (0 is "A") and row r (0 is the bottom) is $board[$r * 7 + $c];
 *                 "0" empty, "1" a disc of the first player, "2" of the second.
 * $game['me']     "1" if you play first, "2" if second.
 * $game['moves']  the columns that are not full, such as ["A", "C", "D"].
 * $game['last']   the opponent's last column ("" before its first).
 */
function connectfour(array $game): string
{
    return pick($game['moves']);
}

/**
 * Return your hand: "1" rock, "2" paper, "3" scissors (rock beats scissors, scissors
 * beat paper, paper beats rock; the first to win 5 rounds wins).
 *
 * $game['moves']  always ["1", "2", "3"].
 * $game['last']   the opponent's hand in the last round ("" in the first round).
 * $game['me']     "1" if you are the first player, "2" if second.
 * $game['call']['Gain1'], $game['call']['Gain2']: the first and second player's scores
 *                 (from round 2).
 */
function rochambeau(array $game): string
{
    return pick($game['moves']);
}

/** Return one of $list's items at random. */
function pick(array $list): string
{
    return $list[random_int(0, count($list) - 1)];
}

// The Sets this engine plays: the Set's name as the Arbitre sends it => your function.
const PLAYERS = ['TicTacToe' => 'tictactoe', 'ConnectFour' => 'connectfour', 'Rochambeau' => 'rochambeau'];

// ======================================================================================
// The plumbing: the Tournoyons engine protocol. Nothing below needs changing to play.
// ======================================================================================

// Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
const BOARDS = ['TicTacToe' => [9, '012'], 'ConnectFour' => [42, '012']];
// The longest query read (the Sets above need a few hundred characters).
const MAX_QUERY = 16 * 1024;
// The most seconds spent calling the Referee back.
const CALLBACK_TIMEOUT = 10;
// What the final call's Status means.
const RESULTS = [
    '1' => 'won (first player)',
    '2' => 'won (second player)',
    '3' => 'lost (first player)',
    '4' => 'lost (second player)',
    '5' => 'draw',
    '9' => "ended by an error that is nobody's fault",
];

/** Return the legal moves of $set on $board. */
function legal_moves(string $set, string $board): array
{
    $moves = [];
    if ($set === 'TicTacToe') {
        for ($cell = 0; $cell < 9; $cell++) {
            if ($board[$cell] === '0') {
                $moves[] = (string) ($cell + 1);
            }
        }
    } elseif ($set === 'ConnectFour') {
        // A column is open while its top cell (row 5) is empty.
        foreach (str_split('ABCDEFG') as $column => $letter) {
            if ($board[35 + $column] === '0') {
                $moves[] = $letter;
            }
        }
    } elseif ($set === 'Rochambeau') {
        $moves = ['1', '2', '3'];
    }
    return $moves;
}

/**
 * Answer one call of the Arbitre, $query its raw query string: return the HTTP status and
 * text. A move request is answered after calling the Referee back with the move; in tester
 * mode (an empty Referee) the answer is the move alone; a final call (a Status other than
 * 0) only says OK.
 */
function answer(string $query): array
{
    if (strlen($query) > MAX_QUERY) {
        return [414, 'query over ' . MAX_QUERY . ' characters'];
    }
    if ($query === '') {
        return [200, 'A Tournoyons engine: it plays ' . implode(', ', array_keys(PLAYERS)) . ".\n"];
    }
    $call = read_query($query);
    $status = $call['Status'] ?? '0';
    if ($status !== '' && $status !== '0') { // the final call: the game is over, never call back
        $result = RESULTS[$status] ?? "Status $status";
        say(($call['Set'] ?? '?') . ' game ' . ($call['Game'] ?? '?') . " over: $result");
        return [200, 'OK'];
    }
    if (!array_key_exists('Referee', $call)) {
        return [400, 'not a move request: no Referee (a final call has a Status)'];
    }
    $set = ($call['Set'] ?? '') !== '' ? $call['Set'] : guess_set($call);
    if (!array_key_exists($set, PLAYERS)) {
        return [400, "unknown Set '$set': this engine plays " . implode(', ', array_keys(PLAYERS))];
    }
    $game = read_game($set, $call);
    if (is_string($game)) {
        return [400, $game];
    }
    $value = trim((string) (PLAYERS[$set])($game));
    if (!in_array($value, $game['moves'], true)) {
        say("warning: $set got '$value' from your function, not one of " . implode(', ', $game['moves']));
    }
    $referee = $call['Referee'];
    if ($referee === '') {
        return [200, $value]; // tester mode: the answer is the move, and nothing else
    }
    if (!preg_match('#^https?://#', $referee)) {
        return [400, 'the Referee is no http:// or https:// URL'];
    }
    if (($call['Game'] ?? '') === '' || ($call['MoveId'] ?? '') === '') {
        return [400, 'no Game or no MoveId: the Referee could not be told which move this is'];
    }
    $failed = call_back($referee, $call, $value, seconds($call));
    $turn = $call['Turn'] ?? '?';
    if ($failed !== '') {
        say("$set game {$call['Game']} turn $turn: $failed");
        return [502, $failed];
    }
    say("$set game {$call['Game']} turn $turn: played $value");
    return [200, 'OK'];
}

/** Return the parameters of a raw query string, by name (the first of a repeated name counts). */
function read_query(string $query): array
{
    $call = [];
    foreach (explode('&', $query) as $pair) {
        if ($pair === '') {
            continue;
        }
        $parts = explode('=', $pair, 2);
        $name = urldecode($parts[0]);
        if (!array_key_exists($name, $call)) {
            $call[$name] = urldecode($parts[1] ?? '');
        }
    }
    return $call;
}

/**
 * Return the Set of a call that does not name it (the original tester's form), from its
 * Tray: 9 characters TicTacToe, 42 ConnectFour, none Rochambeau.
 */
function guess_set(array $call): string
{
    if (!array_key_exists('Tray', $call)) {
        return 'Rochambeau';
    }
    return [9 => 'TicTacToe', 42 => 'ConnectFour'][strlen($call['Tray'])] ?? '';
}

/** Return what the Set's function receives (see the functions above), or what is wrong. */
function read_game(string $set, array $call)
{
    $board = '';
    if (array_key_exists($set, BOARDS)) {
        [$size, $codes] = BOARDS[$set];
        $board = $call['Tray'] ?? '';
        if ($board === 'Init') { // "nothing played yet"
            $board = str_repeat('0', $size);
        }
        if (strlen($board) !== $size || strspn($board, $codes) !== $size) {
            return "the $set Tray is $size characters " . implode(', ', str_split($codes));
        }
    }
    $moves = legal_moves($set, $board);
    if (count($moves) === 0) {
        return 'no legal move on this board';
    }
    $turn = number($call['Turn'] ?? '');
    if ($turn > 0) { // an odd Turn asks the first player, an even one the second
        $me = $turn % 2 === 1 ? '1' : '2';
    } else { // no Turn: the first player moves when both have as many stones
        $me = substr_count($board, '1') === substr_count($board, '2') ? '1' : '2';
    }
    return [
        'board' => $board,
        'me' => $me,
        'moves' => $moves,
        'last' => $call[$me === '1' ? 'Move2' : 'Move1'] ?? '',
        'turn' => $turn,
        'call' => $call,
    ];
}

/**
 * Return how long to wait for the Referee: the call's TimeOut (the Arbitre takes no answer
 * after it), at most CALLBACK_TIMEOUT seconds, at least one.
 */
function seconds(array $call): int
{
    $timeout = number($call['TimeOut'] ?? '');
    return max(1, min($timeout > 0 ? $timeout : CALLBACK_TIMEOUT, CALLBACK_TIMEOUT));
}

/** Return $text as a number when it is one (a few digits), else 0. */
function number(string $text): int
{
    return preg_match('/^[0-9]{1,9}$/', $text) ? (int) $text : 0;
}

/**
 * Call the Referee back with the move: GET <Referee>?Game=..&MoveId=..&Value=..; return ""
 * when it said OK, else what went wrong. Each wait (to connect, for the answer) lasts
 * $timeout seconds at most.
 */
function call_back(string $referee, array $call, string $value, int $timeout): string
{
    $back = http_build_query(['Game' => $call['Game'], 'MoveId' => $call['MoveId'], 'Value' => $value]);
    $url = $referee . (strpos($referee, '?') === false ? '?' : '&') . $back;
    ini_set('default_socket_timeout', (string) $timeout); // the connection's own wait
    $context = stream_context_create(['http' => [
        'timeout' => $timeout,
        'ignore_errors' => true, // a 404 is an answer too: read its status
        'follow_location' => 0,
        'header' => "Connection: close\r\n",
    ]]);
    $stream = @fopen($url, 'rb', false, $context);
    if ($stream === false) {
        $error = error_get_last()['message'] ?? 'no answer';
        $error = preg_replace('#^fopen\(.*?\): #', '', html_entity_decode($error));
        return "could not call the Referee back: $error";
    }
    $headers = stream_get_meta_data($stream)['wrapper_data'] ?? [];
    fclose($stream);
    $code = preg_match('#^HTTP/\S+ (\d+)#', (string) ($headers[0] ?? ''), $found) ? $found[1] : '?';
    return $code === '200' ? '' : "the Referee answered $code to $value";
}

/** Print one line of what the engine did (on the server's console). */
function say(string $line): void
{
    file_put_contents('php://stderr', $line . "\n");
}

/** Answer the request this script serves. */
function main(): void
{
    try {
        if (($_SERVER['REQUEST_METHOD'] ?? 'GET') !== 'GET') {
            [$status, $text] = [405, 'GET only'];
        } else {
            [$status, $text] = answer((string) ($_SERVER['QUERY_STRING'] ?? ''));
        }
    } catch (Throwable $error) { // a mistake in your function: answered, and the engine goes on
        say((string) $error);
        [$status, $text] = [500, 'the engine failed: see its output'];
    }
    http_response_code($status);
    header('Content-Type: text/plain; charset=utf-8');
    echo $text;
}

main();
