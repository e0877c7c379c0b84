package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An interpreter or shell whose stdin/stdout is a network connection to another machine, judged on the text of a
 * block in any language (a shell one-liner is the same inside bash, a python string or node's exec):
 * <ul>
 *   <li>{@code remote-shell}: bash/sh over {@code /dev/tcp/HOST/PORT}; nc/ncat/socat handing a shell to the
 *   connection ({@code -e /bin/sh}, {@code EXEC:bash}); a shell piped into nc; a socket's descriptor made the
 *   standard streams of a process ({@code dup2(s.fileno(), 0)}, {@code stdin=s.fileno()}) that runs a shell or pty;
 *   commands read from a socket run ({@code IO.popen(s.gets)}, {@code exec(data)} in a socket's data handler);
 *   a spawned shell piped to a socket;
 *   <li>{@code run-downloaded-binary}: a file downloaded, made executable (chmod +x, S_IEXEC, 0o755) and run.
 * </ul>
 * When every host the block names is this machine (a test server on 127.0.0.1 it started itself) the block is let
 * through. Pure and stateless.
 */
public final class RemoteShells {

  private static final Pattern DEV_TCP_SHELL = Pattern.compile(
      "/dev/(?:tcp|udp)/[^/\\s\"'`]+/\\d+[^\\n]*?(?:0>&1|>&\\s*\\d|<&\\s*\\d)|(?:\\b(?:ba|z|k|da)?sh\\s+-i\\b|exec\\s+\\d+<>)[^\\n]*/dev/(?:tcp|udp)/");
  private static final Pattern NC_EXEC = Pattern.compile(
      "(?<![\\w./-])(?:nc|ncat|netcat|nc\\.traditional|nc\\.openbsd)\\b[^\\n|;&]*?\\s(?:-e|-c|--exec|--sh-exec|--lua-exec)[\\s=]");
  private static final Pattern SOCAT_EXEC = Pattern.compile("\\bsocat\\b[^\\n]*\\b(?:exec|system):", Pattern.CASE_INSENSITIVE);
  private static final Pattern SHELL_INTO_NC = Pattern.compile(
      "\\b(?:ba|z|da)?sh\\s+-i\\b[^\\n]*\\|\\s*(?:nc|ncat|netcat|openssl\\s+s_client|socat|telnet)\\b");
  private static final Pattern FD_ON_SOCKET = Pattern.compile(
      "\\bdup2\\s*\\(\\s*[\\w.]+\\.fileno\\(\\)|\\bstd(?:in|out)\\s*=\\s*[\\w.]+\\.fileno\\(\\)|\\b(?:in|out)\\s*(?::|=>)\\s*\\w*sock\\w*");
  private static final Pattern SHELL = Pattern.compile(
      "['\"](?:/bin/|/usr/bin/)?(?:ba|z|k|da)?sh['\"]|/bin/(?:ba|z)?sh\\b|\\bpty\\.spawn\\b|cmd\\.exe|powershell", Pattern.CASE_INSENSITIVE);
  private static final Pattern SOCKET_VAR = Pattern.compile(
      "\\b(\\w+)\\s*=\\s*(?:await\\s+)?(?:socket\\.socket|socket\\.create_connection|TCPSocket\\.(?:new|open)|Socket\\.tcp"
          + "|net\\.(?:connect|createConnection|Socket)|new\\s+net\\.Socket|socketConnection|make_socket)\\b");
  private static final Pattern RUNS = Pattern.compile(
      "(?:\\bIO\\.popen|\\bOpen3\\.\\w+|\\bsystem|\\bspawn|\\bexecSync|\\bexec|\\bexecFile|\\bpopen|\\bcheck_output|\\bsubprocess\\.\\w+"
          + "|\\bos\\.system|\\beval|\\bSys\\.exec|\\bpipe)\\s*\\(\\s*");
  private static final Pattern DATA_HANDLER = Pattern.compile(
      "\\.on\\s*\\(\\s*['\"]data['\"]\\s*,\\s*(?:async\\s+)?(?:function\\s*)?\\(?\\s*(\\w+)");
  private static final Pattern SPAWNED_SHELL_PIPED = Pattern.compile(
      "\\b(\\w+)\\s*=\\s*(?:child_process\\.|cp\\.)?spawn\\s*\\(\\s*['\"](?:/bin/)?(?:ba)?sh['\"]");

  private static final Pattern DOWNLOAD = Pattern.compile(
      "\\burlretrieve\\s*\\(|\\brequests\\.get\\s*\\(|\\burlopen\\s*\\(|\\bdownload\\.file\\s*\\(|\\bcurl\\b|\\bwget\\b"
          + "|\\bfetch\\s*\\(|\\bNet::HTTP\\b|\\bURI\\.open\\b|\\bhttpx\\.get\\s*\\(|\\bhttps?\\.get\\s*\\(|\\bGET\\s*\\(");
  private static final Pattern MAKE_EXECUTABLE = Pattern.compile(
      "\\bchmod\\s*\\+?\\s*[ugoa]*\\+x\\b|\\bchmod\\w*\\s*\\([^\\n]*(?:S_IEXEC|S_IXUSR|S_IXGRP|S_IXOTH|0o?[157]\\d\\d\\b|['\"][157]\\d\\d['\"])"
          + "|\\bSys\\.chmod\\s*\\([^)]*['\"][157]\\d\\d|\\bFile\\.chmod\\s*\\(\\s*0o?[157]\\d\\d|\\bFileUtils\\.chmod\\s*\\([^)]*(?:\\+x|0o?[157]\\d\\d)");
  private static final Pattern RUN_FILE = Pattern.compile(
      "\\bsubprocess\\.\\w+\\s*\\(|\\bos\\.(?:system|exec\\w*|spawn\\w*|startfile)\\s*\\(|\\bsystem2?\\s*\\(|\\bexecFile(?:Sync)?\\s*\\("
          + "|\\bspawn(?:Sync)?\\s*\\(|\\bexec(?:Sync)?\\s*\\(|\\bprocessx::run\\s*\\(|\\bOpen3\\.|`|(?:^|[;&|]\\s*)\\.?/\\S+|\\bIO\\.popen\\b");

  private RemoteShells() {}

  /** The flags of a block's text; empty when it opens no shell to another machine. */
  public static List<Flag> judge(String code) {
    List<Flag> out = new ArrayList<>();
    if (Hosts.onlyLocal(code)) {
      return out;
    }
    String how = shellOverConnection(code);
    if (how != null) {
      out.add(Flag.high("remote-shell", "gives a shell on this machine to a network connection (" + how + ")"));
    }
    if (DOWNLOAD.matcher(code).find() && MAKE_EXECUTABLE.matcher(code).find()
        && RUN_FILE.matcher(code).find() && Hosts.anyRemote(code)) {
      out.add(Flag.high("run-downloaded-binary", "downloads a file, makes it executable and runs it"));
    }
    return out;
  }

  private static String shellOverConnection(String code) {
    if (DEV_TCP_SHELL.matcher(code).find()) {
      return "a shell over /dev/tcp";
    }
    if (NC_EXEC.matcher(code).find() || SOCAT_EXEC.matcher(code).find()) {
      return "nc/socat running a program for the connection";
    }
    if (SHELL_INTO_NC.matcher(code).find()) {
      return "an interactive shell piped to a connection";
    }
    List<String> sockets = new ArrayList<>();
    Matcher s = SOCKET_VAR.matcher(code);
    while (s.find()) {
      sockets.add(s.group(1));
    }
    if (sockets.isEmpty() && !code.contains("socket") && !code.contains("net.")) {
      return null;
    }
    if (FD_ON_SOCKET.matcher(code).find() && SHELL.matcher(code).find()) {
      return "a socket made the standard streams of a shell";
    }
    for (String sock : sockets) {
      // a variable read from the socket, then run
      Matcher read = Pattern.compile("\\b(\\w+)\\s*=\\s*(?:\\(\\s*)?" + Pattern.quote(sock)
          + "\\.(?:gets|recv|read|readline|readpartial|recvfrom)\\b").matcher(code);
      while (read.find()) {
        if (runsName(code, read.group(1))) {
          return "commands read from " + sock + " are run";
        }
      }
      if (runsName(code, sock + ".recv") || runsName(code, sock + ".gets") || runsName(code, sock + ".read")) {
        return "commands read from " + sock + " are run";
      }
    }
    Matcher handler = DATA_HANDLER.matcher(code);
    while (handler.find()) {
      if (runsName(code, handler.group(1))) {
        return "data from a connection is run";
      }
    }
    Matcher sh = SPAWNED_SHELL_PIPED.matcher(code);
    while (sh.find()) {
      if (code.contains(".pipe(" + sh.group(1) + ".stdin") || code.contains(sh.group(1) + ".stdout.pipe(")) {
        return "a spawned shell piped to a connection";
      }
    }
    return null;
  }

  private static boolean runsName(String code, String name) {
    Matcher m = RUNS.matcher(code);
    while (m.find()) {
      if (code.startsWith(name, m.end()) && (m.end() + name.length() >= code.length()
          || !Character.isLetterOrDigit(code.charAt(m.end() + name.length())))) {
        return true;
      }
    }
    return false;
  }
}
