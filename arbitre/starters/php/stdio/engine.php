<?php
// A Tournoyons engine in PHP over standard input and output: plays TicTacToe, ConnectFour
// and Rochambeau.
//
// The Arbitre starts it and talks to it one line at a time: each request comes as a line
// on its standard input (the query string an engine over HTTP would get), and the engine
// answers with its move as one line on its standard output. No web server, no port:
//
//   tournoyons-gui play --set ConnectFour --engine cmd:"php engine.php" --engine builtin:random
//
// It needs nothing but PHP 7.4 or newer's command line. Your engine is the three functions
// just below, one per Set. Each receives the game as the Arbitre sees it (the board, which
// player you are, the legal moves ...) and returns the move to play; as given, each plays
// a legal move at random. Print whatever you like to standard error (say()): it goes to the
// game's log. Standard output is the Arbitre's: one line per request, nothing else.

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
// The plumbing: a line in, a line out. Nothing below needs changing to play.
// ======================================================================================

// Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
const BOARDS = ['TicTacToe' => [9, '012'], 'ConnectFour' => [42, '012']];
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
 * Return the line that answers one request, $query its query string: the move to play;
 * "OK" to a final call (a Status other than 0: the game is over); an empty line (no move)
 * to a request this engine cannot read, the reason on standard error.
 */
function answer(string $query): string
{
    $call = read_query($query);
    $status = $call['Status'] ?? '0';
    if ($status !== '' && $status !== '0') { // the final call: the game is over
        $result = RESULTS[$status] ?? "Status $status";
        say(($call['Set'] ?? '?') . ' game ' . ($call['Game'] ?? '?') . " over: $result");
        return 'OK';
    }
    if (!array_key_exists('Referee', $call)) { // every request has one (empty: the answer is this line)
        say('not a move request: no Referee (a final call has a Status)');
        return '';
    }
    $set = ($call['Set'] ?? '') !== '' ? $call['Set'] : guess_set($call);
    if (!array_key_exists($set, PLAYERS)) {
        say("unknown Set '$set': this engine plays " . implode(', ', array_keys(PLAYERS)));
        return '';
    }
    $game = read_game($set, $call);
    if (is_string($game)) {
        say($game);
        return '';
    }
    $value = trim((string) (PLAYERS[$set])($game));
    if (!in_array($value, $game['moves'], true)) {
        say("warning: $set got '$value' from your function, not one of " . implode(', ', $game['moves']));
    }
    say("$set game " . ($call['Game'] ?? '?') . ' turn ' . ($call['Turn'] ?? '?') . ": played $value");
    return $value;
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

/** Return $text as a number when it is one (a few digits), else 0. */
function number(string $text): int
{
    return preg_match('/^[0-9]{1,9}$/', $text) ? (int) $text : 0;
}

/** Write one line of what the engine did to standard error (the game's log). */
function say(string $line): void
{
    fwrite(STDERR, $line . "\n");
}

/**
 * Answer each line of standard input with one line on standard output, until the input
 * ends (the Arbitre closes it at the end of the match).
 */
function main(): void
{
    while (($line = fgets(STDIN)) !== false) {
        try {
            $value = answer(rtrim($line, "\r\n"));
        } catch (Throwable $error) { // a mistake in your function: no move, and it goes on
            say((string) $error);
            $value = '';
        }
        fwrite(STDOUT, str_replace("\n", ' ', $value) . "\n");
        fflush(STDOUT);
    }
}

main();
