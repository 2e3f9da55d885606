# A Tournoyons engine in Ruby: plays TicTacToe, ConnectFour and Rochambeau.
#
# Run it with `ruby engine.rb 8001`: its URL is then http://127.0.0.1:8001/ (add an address
# after the port, `ruby engine.rb 8001 0.0.0.0`, to be reached from elsewhere). It needs
# nothing but Ruby 2.7 or newer and its standard library (socket, net/http).
#
# Your engine is the three methods just below, one per Set. Each receives the game as the
# Arbitre sees it (the board, which player you are, the legal moves ...) and returns the
# move to play; as given, each plays a legal move at random. Everything under "The
# plumbing" speaks the engine protocol for you: you need not read it to start.

require "io/wait"
require "net/http"
require "socket"
require "timeout"
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
# The plumbing: the Tournoyons engine protocol. Nothing below needs changing to play.
# ======================================================================================

# Each board Set's Tray: its length and the characters it holds (Rochambeau has none).
BOARDS = { "TicTacToe" => [9, "012"], "ConnectFour" => [42, "012"] }.freeze
# The longest query read (the Sets above need a few hundred characters).
MAX_QUERY = 16 * 1024
# The longest request line and headers read (as Python's own server).
MAX_LINE = 64 * 1024
MAX_HEADERS = 16 * 1024
# The most seconds spent calling the Referee back (and on reading a request).
CALLBACK_TIMEOUT = 10
# What the final call's Status means.
RESULTS = {
  "1" => "won (first player)",
  "2" => "won (second player)",
  "3" => "lost (first player)",
  "4" => "lost (second player)",
  "5" => "draw",
  "9" => "ended by an error that is nobody's fault",
}.freeze
# The HTTP statuses this engine answers.
REASONS = {
  200 => "OK", 400 => "Bad Request", 405 => "Method Not Allowed", 414 => "URI Too Long",
  431 => "Request Header Fields Too Large", 500 => "Internal Server Error", 502 => "Bad Gateway"
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

# Answer one call of the Arbitre, query its raw query string: return the HTTP status and
# text. A move request is answered after calling the Referee back with the move; in
# tester mode (an empty Referee) the answer is the move alone; a final call (a Status
# other than 0) only says OK.
def answer(query)
  return [414, "query over #{MAX_QUERY} characters"] if query.bytesize > MAX_QUERY
  return [200, "A Tournoyons engine: it plays #{PLAYERS.keys.join(', ')}.\n"] if query.empty?

  call = read_query(query)
  status = call.fetch("Status", "0")
  unless ["", "0"].include?(status) # the final call: the game is over, never call back
    say("#{call.fetch('Set', '?')} game #{call.fetch('Game', '?')} over: #{RESULTS.fetch(status, "Status #{status}")}")
    return [200, "OK"]
  end
  return [400, "not a move request: no Referee (a final call has a Status)"] unless call.key?("Referee")

  set_name = call["Set"].to_s.empty? ? guess_set(call) : call["Set"]
  return [400, "unknown Set #{set_name.inspect}: this engine plays #{PLAYERS.keys.join(', ')}"] unless PLAYERS.key?(set_name)

  game = read_game(set_name, call)
  return [400, game] if game.is_a?(String)

  value = send(PLAYERS[set_name], game).to_s.strip
  say("warning: #{set_name} got #{value.inspect} from your method, not one of #{game[:moves]}") unless game[:moves].include?(value)
  referee = call["Referee"]
  return [200, value] if referee.empty? # tester mode: the answer is the move, and nothing else
  return [400, "the Referee is no http:// or https:// URL"] unless referee.match?(%r{\Ahttps?://})
  if call["Game"].to_s.empty? || call["MoveId"].to_s.empty?
    return [400, "no Game or no MoveId: the Referee could not be told which move this is"]
  end

  failed = call_back(referee, call, value, seconds(call))
  turn = call.fetch("Turn", "?")
  unless failed.empty?
    say("#{set_name} game #{call['Game']} turn #{turn}: #{failed}")
    return [502, failed]
  end
  say("#{set_name} game #{call['Game']} turn #{turn}: played #{value}")
  [200, "OK"]
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

# Return how long to wait for the Referee: the call's TimeOut (the Arbitre takes no answer
# after it), at most CALLBACK_TIMEOUT seconds, at least one.
def seconds(call)
  timeout = number(call.fetch("TimeOut", ""))
  timeout = CALLBACK_TIMEOUT if timeout.zero?
  timeout.clamp(1, CALLBACK_TIMEOUT)
end

# Return text as a number when it is one (a few digits), else 0.
def number(text)
  text.match?(/\A[0-9]{1,9}\z/) ? text.to_i : 0
end

# Call the Referee back with the move: GET <Referee>?Game=..&MoveId=..&Value=..; return ""
# when it said OK, else what went wrong. Each wait (to connect, for the answer) lasts
# timeout seconds at most.
def call_back(referee, call, value, timeout)
  back = URI.encode_www_form("Game" => call["Game"], "MoveId" => call["MoveId"], "Value" => value)
  uri = URI.parse(referee + (referee.include?("?") ? "&" : "?") + back)
  Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https",
                                      open_timeout: timeout, read_timeout: timeout, write_timeout: timeout) do |http|
    response = http.request(Net::HTTP::Get.new(uri.request_uri, "Connection" => "close"))
    return response.code == "200" ? "" : "the Referee answered #{response.code} to #{value}"
  end
rescue StandardError, Timeout::Error => e
  "could not call the Referee back: #{e.message.empty? ? e.class : e.message}"
end

# Print one line of what the engine did.
def say(line)
  $stdout.puts(line)
end

# Read one request from client within CALLBACK_TIMEOUT seconds: return [method, target],
# or [status, text] when it cannot be read (too long, not HTTP).
def read_request(client)
  Timeout.timeout(CALLBACK_TIMEOUT) do
    line = client.gets("\n", MAX_LINE)
    return [400, "no request"] if line.nil?
    return [414, "request line over #{MAX_LINE} bytes"] unless line.end_with?("\n")

    read = 0
    loop do # the headers: read and left aside (a GET needs none)
      header = client.gets("\n", MAX_HEADERS)
      return [400, "the request ended early"] if header.nil?

      read += header.bytesize
      return [431, "headers over #{MAX_HEADERS} bytes"] if read > MAX_HEADERS || !header.end_with?("\n")
      break if header.strip.empty?
    end
    method, target = line.split(" ", 3)
    return [400, "not an HTTP request"] if target.nil?

    [method, target]
  end
rescue Timeout::Error
  [400, "no request within #{CALLBACK_TIMEOUT} s"]
end

# Serve one connection: one request, its answer, the connection closed.
def handle(client)
  method, target = read_request(client)
  if method.is_a?(Integer)
    status, text = method, target
  elsif method != "GET"
    status, text = 405, "GET only"
  else
    begin
      status, text = answer(target.split("#", 2).first.split("?", 2)[1].to_s)
    rescue StandardError => e # a mistake in your method: answered, and the engine goes on
      $stderr.puts("#{e.class}: #{e.message}\n  #{e.backtrace.first(5).join("\n  ")}")
      status, text = 500, "the engine failed: see its output"
    end
  end
  body = text.b
  client.write("HTTP/1.1 #{status} #{REASONS.fetch(status, 'Error')}\r\nContent-Type: text/plain; charset=utf-8\r\n" \
               "Content-Length: #{body.bytesize}\r\nConnection: close\r\n\r\n#{body}")
  drain(client) if [400, 414, 431].include?(status)
rescue StandardError
  nil # the caller went away: nothing to answer
ensure
  client.close
end

# Read what the caller still sends (an overlong request's rest, at most a second), so
# that the answer reaches it before the connection closes.
def drain(client)
  client.close_write
  deadline = Time.now + 1
  loop do
    break if Time.now > deadline || !client.wait_readable(0.2)

    client.read_nonblock(65_536)
  end
rescue StandardError
  nil
end

# Serve on the port (and address) given on the command line.
def main
  unless (1..2).cover?(ARGV.length) && ARGV[0].match?(/\A[0-9]{1,5}\z/)
    abort("usage: ruby engine.rb PORT [ADDRESS]   (ADDRESS: 127.0.0.1 by default)")
  end
  port = ARGV[0].to_i
  host = ARGV[1] || "127.0.0.1"
  $stdout.sync = true
  server = TCPServer.new(host, port)
  puts("engine listening on http://#{host}:#{port}/ (Ctrl-C stops it)")
  loop do
    client = server.accept
    Thread.new(client) { |connection| handle(connection) }
  end
rescue Interrupt
  nil
ensure
  server&.close
end

main if $PROGRAM_NAME == __FILE__
