# A Tournoyons engine in Ruby over standard input and output: plays TicTacToe,
# ConnectFour and Rochambeau.
#
# The Arbitre starts it and talks to it one line at a time: each request comes as a line
# on its standard input (the query string an engine over HTTP would get), and the engine
# answers with its move as one line on its standard output. No web server, no port:
#
#   tournoyons-gui play --set ConnectFour --engine cmd:"ruby engine.rb" --engine builtin:random
#
# It needs nothing but Ruby 2.7 or newer and its standard library. Your engine is the
# three methods just below, one per Set. Each receives the game as the Arbitre sees it
# (the board, which player you are, the legal moves ...) and returns the move to play; as
# given, each plays a legal move at random. Print whatever you like to standard error
# (say): it goes to the game's log. Standard output is the Arbitre's: one line per
# request, nothing else.

require "uri"

# ======================================================================================
# Your engine: one method per Set. Start here.
# ======================================================================================

# Return the cell to play, "1" to "9" (top left to bottom right, row by row).
#
# game[:board]  9 characters, row by row from the top: "0" empty, "1" a mark of the
#               first player, "2" of the second.
# game[:me]     "1" if you play first, "2" if second: your marks on the board.
# game[:moves]  the free cells, such as ["1", "5", "9"].
# game[:last]   the opponent's last cell ("" before its first).
# game[:call]   every parameter the Arbitre sent, as sent.
def tictactoe(game)
  game[:moves].sample
end

# Return the column to drop your disc in, "A" to "G".
#
# game[:board]  42 characters, 6 rows of 7 cells, the BOTTOM row first: the cell of
#               column c (0 is "A") and row r (0 is the bottom) is board[r * 7 + c];
#               "0" empty, "1" a disc of the first player, "2" of the second.
# game[:me]     "1" if you play first, "2" if second.
# game[:moves]  the columns that are not full, such as ["A", "C", "D"].
# game[:last]   the opponent's last column ("" before its first).
def connectfour(game)
  game[:moves].sample
end

# Return your hand: "1" rock, "2" paper, "3" scissors (rock beats scissors, scissors beat
# paper, paper beats rock; the first to win 5 rounds wins).
#
# game[:moves]  always ["1", "2", "3"].
# game[:last]   the opponent's hand in the last round ("" in the first round).
# game[:me]     "1" if you are the first player, "2" if second.
# game[:call]["Gain1"], game[:call]["Gain2"]: the first and second player's scores (from
#               round 2).
def rochambeau(game)
  game[:moves].sample
end

# The Sets this engine plays: the Set's name as the Arbitre sends it => your method.
PLAYERS = { "TicTacToe" => :tictactoe, "ConnectFour" => :connectfour, "Rochambeau" => :rochambeau }.freeze

# ======================================================================================
# The plumbing: a line in, a line out. Nothing below needs changing to play.
# ======================================================================================

# Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
BOARDS = { "TicTacToe" => [9, "012"], "ConnectFour" => [42, "012"] }.freeze
# What the final call's Status means.
RESULTS = {
  "1" => "won (first player)",
  "2" => "won (second player)",
  "3" => "lost (first player)",
  "4" => "lost (second player)",
  "5" => "draw",
  "9" => "ended by an error that is nobody's fault",
}.freeze

# Return the legal moves of set_name on board.
def legal_moves(set_name, board)
  case set_name
  when "TicTacToe"
    (0...9).select { |cell| board[cell] == "0" }.map { |cell| (cell + 1).to_s }
  when "ConnectFour" # a column is open while its top cell (row 5) is empty
    "ABCDEFG".chars.each_with_index.select { |_, column| board[35 + column] == "0" }.map(&:first)
  when "Rochambeau"
    %w[1 2 3]
  else
    []
  end
end

# Return the line that answers one request, query its query string: the move to play;
# "OK" to a final call (a Status other than 0: the game is over); an empty line (no
# move) to a request this engine cannot read, the reason on standard error.
def answer(query)
  call = read_query(query)
  status = call.fetch("Status", "0")
  unless ["", "0"].include?(status) # the final call: the game is over
    say("#{call.fetch('Set', '?')} game #{call.fetch('Game', '?')} over: #{RESULTS.fetch(status, "Status #{status}")}")
    return "OK"
  end
  unless call.key?("Referee") # every request has one (empty: the answer is this line)
    say("not a move request: no Referee (a final call has a Status)")
    return ""
  end
  set_name = call["Set"].to_s.empty? ? guess_set(call) : call["Set"]
  unless PLAYERS.key?(set_name)
    say("unknown Set #{set_name.inspect}: this engine plays #{PLAYERS.keys.join(', ')}")
    return ""
  end
  game = read_game(set_name, call)
  if game.is_a?(String)
    say(game)
    return ""
  end
  value = send(PLAYERS[set_name], game).to_s.strip
  say("warning: #{set_name} got #{value.inspect} from your method, not one of #{game[:moves]}") unless game[:moves].include?(value)
  say("#{set_name} game #{call.fetch('Game', '?')} turn #{call.fetch('Turn', '?')}: played #{value}")
  value
end

# Return the parameters of a raw query string, by name (the first of a repeated name
# counts); a part that is no percent-encoding is left out.
def read_query(query)
  call = {}
  query.split("&").each do |pair|
    next if pair.empty?

    name, value = pair.split("=", 2)
    begin
      name = URI.decode_www_form_component(name)
      value = URI.decode_www_form_component(value || "")
    rescue ArgumentError
      next
    end
    call[name] = value unless call.key?(name)
  end
  call
end

# Return the Set of a call that does not name it (the original tester's form), from its
# Tray: 9 characters TicTacToe, 42 ConnectFour, none Rochambeau.
def guess_set(call)
  return "Rochambeau" unless call.key?("Tray")

  { 9 => "TicTacToe", 42 => "ConnectFour" }.fetch(call["Tray"].length, "")
end

# Return what the Set's method receives (see the methods above), or what is wrong.
def read_game(set_name, call)
  board = ""
  if BOARDS.key?(set_name)
    size, codes = BOARDS[set_name]
    board = call.fetch("Tray", "")
    board = "0" * size if board == "Init" # "nothing played yet"
    unless board.length == size && board.each_char.all? { |code| codes.include?(code) }
      return "the #{set_name} Tray is #{size} characters #{codes.chars.join(', ')}"
    end
  end
  moves = legal_moves(set_name, board)
  return "no legal move on this board" if moves.empty?

  turn = number(call.fetch("Turn", ""))
  me = if turn.positive? # an odd Turn asks the first player, an even one the second
         turn.odd? ? "1" : "2"
       else # no Turn: the first player moves when both have as many stones
         board.count("1") == board.count("2") ? "1" : "2"
       end
  { board: board, me: me, moves: moves, last: call.fetch(me == "1" ? "Move2" : "Move1", ""), turn: turn, call: call }
end

# Return text as a number when it is one (a few digits), else 0.
def number(text)
  text.match?(/\A[0-9]{1,9}\z/) ? text.to_i : 0
end

# Write one line of what the engine did to standard error (the game's log).
def say(line)
  $stderr.puts(line)
end

# Answer each line of standard input with one line on standard output, until the input
# ends (the Arbitre closes it at the end of the match).
def main
  $stdout.sync = true
  $stderr.sync = true
  $stdin.each_line do |line|
    value = begin
      answer(line.chomp.scrub)
    rescue StandardError => e # a mistake in your method: no move, and the engine goes on
      say("#{e.class}: #{e.message}\n  #{e.backtrace.first(5).join("\n  ")}")
      ""
    end
    $stdout.write(value.tr("\n", " ") + "\n")
  end
end

main if $PROGRAM_NAME == __FILE__
