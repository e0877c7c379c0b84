# interpreter4j ruby REPL driver, run as `ruby -EUTF-8 -e <this file>`.
# Protocol: each line on the original stdin is "<marker> <path-of-code-file>". The code is evaluated in one
# persistent binding (as irb does), so local variables, methods, classes and required libraries carry over;
# then "\x02<marker> <status> -\n" goes to private copies of stdout and stderr. User code sees stdin at
# end-of-file. exit(n) ends the block with n and keeps the process; an exception gives 1 and its backtrace.
module I4jDriver
  QUIET_CALLS = %w[puts print p pp require require_relative load printf warn raise system exit abort sleep].freeze
  NOT_SHOWN = %i[assign opassign massign def defs class module sclass alias var_alias undef].freeze

  @running = false

  def self.main
    # the command channel moves to a private descriptor (close-on-exec, as Ruby opens everything) and fd 0
    # becomes /dev/null, so gets, STDIN.read and child processes see end-of-file instead of our commands
    commands = STDIN.dup
    STDIN.reopen(File::NULL)
    marker_out = STDOUT.dup
    marker_err = STDERR.dup
    [STDOUT, STDERR, marker_out, marker_err].each { |io| io.sync = true }
    begin
      # below a sandbox the launcher leads the group already, and leaving it would put the code out of reach
      shared = ENV.delete('I4J_SHARED_PROCESS_GROUP')
      Process.setsid if Process.getpgrp != Process.pid && !shared # own group: an interrupt reaches the children
    rescue SystemCallError
      nil
    end
    # SIGINT interrupts a running block and is ignored while idle; a handler (not IGNORE) so children exec
    # with the default disposition
    trap('INT') { raise Interrupt if @running }
    user_binding = TOPLEVEL_BINDING.eval('proc { binding }.call')
    while (line = commands.gets)
      marker, path = line.chomp.split(' ', 2)
      status = begin
        execute(path, user_binding)
      rescue Interrupt
        130 # landed in the driver's own bookkeeping
      end
      [STDOUT, STDERR, $stdout, $stderr].each { |io| io.flush rescue nil }
      done = "\x02#{marker} #{status} -\n"
      marker_out.write(done)
      marker_err.write(done)
    end
  end

  def self.execute(path, user_binding)
    code = File.read(path, encoding: 'UTF-8')
    value = nil
    begin
      @running = true
      value = eval(code, user_binding, path, 1) # rubocop:disable Security/Eval
    ensure
      @running = false
    end
    $stdout.puts(value.inspect) if !value.nil? && shown?(code)
    0
  rescue SystemExit => e
    e.status
  rescue Interrupt => e
    report(e)
    130
  rescue Exception => e # rubocop:disable Lint/RescueException -- every failure of user code ends its block
    report(e)
    1
  end

  # Whether the last statement is an expression whose value is worth showing (not an assignment, a definition,
  # or a call such as puts or require that is made for its effect).
  def self.shown?(code)
    require 'ripper'
    tree = Ripper.sexp(code)
    return false unless tree && tree[0] == :program

    last = tree[1].reverse.find { |s| s.is_a?(Array) && s[0] != :void_stmt }
    return false if last.nil? || NOT_SHOWN.include?(last[0])

    name = called_name(last)
    name.nil? || !QUIET_CALLS.include?(name)
  rescue StandardError
    false
  end

  def self.called_name(node)
    return nil unless node.is_a?(Array)

    case node[0]
    when :command, :fcall, :vcall
      ident = node[1]
      ident.is_a?(Array) && ident[0] == :@ident ? ident[1] : nil
    when :method_add_arg, :method_add_block
      called_name(node[1])
    end
  end

  def self.report(error)
    trace = (error.backtrace || []).reject { |frame| frame.start_with?('-e:') }
    if trace.empty? # a syntax error: its message already names the file and line
      STDERR.write("#{error.message} (#{error.class})\n")
      return
    end
    error.set_backtrace(trace)
    STDERR.write(error.full_message(highlight: false, order: :top))
  rescue StandardError
    STDERR.write("#{error.class}: #{error.message}\n")
  end
end

I4jDriver.main
