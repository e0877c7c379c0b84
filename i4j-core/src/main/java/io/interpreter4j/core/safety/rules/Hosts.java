package io.interpreter4j.core.safety.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts a block's text connects to, as far as literals tell: {@code /dev/tcp/HOST/}, the first argument of a
 * socket, SMTP or nc call, the host of a URL, a bare IPv4 address. Used by the rules that judge a block's text in any
 * language, to let through what only talks to this machine. Pure and stateless.
 */
final class Hosts {

  private static final Pattern HOST = Pattern.compile(
      "/dev/(?:tcp|udp)/([^/\\s\"'`]+)/"
          + "|\\b(?:create_connection|connect|connect_ex|TCPSocket\\.(?:new|open)|Socket\\.(?:new|tcp)|SMTP(?:_SSL)?"
          + "|socketConnection|createConnection|Net::SMTP\\.start|make_socket)\\s*\\(\\s*\\(?\\s*(?:host\\s*=\\s*)?"
          + "['\"]([\\w.:-]+)['\"]"
          + "|(?<![\\w./-])(?:nc|ncat|netcat)(?:\\s+-[\\w-]+(?:\\s+/\\S+)?)*\\s+([A-Za-z0-9][\\w.-]*)\\s+\\d+"
          + "|\\b(?:https?|ftp|wss?|smtps?)://(?:[^@/\\s'\"]*@)?([\\w.-]+|\\[[\\w:]+])"
          + "|(?<![\\w.])(\\d{1,3}(?:\\.\\d{1,3}){3})(?![\\w.])"
          + "|\\bhost\\s*[:=]\\s*['\"]([\\w.-]+)['\"]");

  private Hosts() {}

  /** Every host literal in {@code code}, in order. */
  static List<String> in(String code) {
    List<String> out = new ArrayList<>();
    Matcher m = HOST.matcher(code);
    while (m.find() && out.size() < 256) {
      for (int g = 1; g <= m.groupCount(); g++) {
        if (m.group(g) != null) {
          out.add(m.group(g));
          break;
        }
      }
    }
    return out;
  }

  /** Whether every host the text names is this machine, and it names at least one. */
  static boolean onlyLocal(String code) {
    List<String> hosts = in(code);
    return !hosts.isEmpty() && hosts.stream().allMatch(Hosts::isLocal);
  }

  /** Whether the text names a host that is not this machine. */
  static boolean anyRemote(String code) {
    return in(code).stream().anyMatch(h -> !isLocal(h));
  }

  static boolean isLocal(String host) {
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    return Databases.isLocalHost(h) || h.equals("::1") || h.equals("0") || h.equals("localhost.localdomain");
  }
}
