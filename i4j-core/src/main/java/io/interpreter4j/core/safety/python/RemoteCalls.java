package io.interpreter4j.core.safety.python;

import static io.interpreter4j.core.safety.python.PythonApis.DATA_CLIENTS;
import static io.interpreter4j.core.safety.python.PythonApis.DESTRUCTIVE_METHODS;
import static io.interpreter4j.core.safety.python.PythonApis.HTTP_DELETES;
import static io.interpreter4j.core.safety.python.PythonApis.RESOLVERS;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.code.ValueParts;
import io.interpreter4j.core.safety.python.PythonApis.Origin;
import io.interpreter4j.core.safety.rules.Databases;
import io.interpreter4j.core.safety.rules.RemoteSystems;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Python's reach to other machines: connections to remote databases and cloud services, deletions through them or
 * over HTTP, uploads, commands on remote shells (paramiko, fabric), look-ups of computed host names.
 */
final class RemoteCalls extends PythonCallRules {

  RemoteCalls(PythonBlock block) {
    super(block);
  }

  /** Judges the call of {@code name} if it deletes over HTTP or resolves a host; whether it was such a call. */
  boolean call(String name, List<int[]> args, Map<String, int[]> kw) {
    if (HTTP_DELETES.contains(name)) {
      if (!args.isEmpty()) {
        httpDelete(name, args, kw);
      }
    } else if (RESOLVERS.contains(name)) {
      if (!args.isEmpty() && values.literalOf(args.get(0)) == null) {
        findings.facts().dynamicDns(name);
      }
    } else {
      return false;
    }
    return true;
  }

  private void httpDelete(String name, List<int[]> args, Map<String, int[]> kw) {
    boolean request = name.endsWith(".request");
    List<Part> method = request ? values.evalString(args.get(0)[0], args.get(0)[1]) : null;
    int[] url = request ? (args.size() > 1 ? args.get(1) : kw.get("url")) : args.get(0);
    if (url != null && (!request || method != null && "DELETE".equalsIgnoreCase(ValueParts.literal(method)))) {
      findings.add(RemoteSystems.httpDelete(values.literalOf(url), name));
    }
  }

  /** A connection to a database or cloud service: a fact when it reaches another machine. */
  void clients(String name, int paren) {
    if (PythonApis.isCloudClient(name)) {
      findings.facts().remoteData(name);
      return;
    }
    if (!DATA_CLIENTS.contains(name)) {
      return;
    }
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(paren + 1, src.matching(paren), kw);
    String host = null;
    for (String key : List.of("host", "url", "hostname", "server", "dsn", "conninfo")) {
      if (kw.containsKey(key)) {
        host = hostIn(kw.get(key));
      }
    }
    for (int k = 0; host == null && k < args.size(); k++) {
      host = hostIn(args.get(k));
    }
    if (host != null && !Databases.isLocalHost(host)) {
      findings.facts().remoteData(host);
    }
  }

  /** The host a connection argument names: a plain host, a URL, or a libpq string ("host=db port=5432"). */
  private String hostIn(int[] arg) {
    String s = values.literalOf(arg);
    if (s == null) {
      return null;
    }
    if (s.contains("://")) {
      return Databases.hostOfUrl(s);
    }
    int h = s.indexOf("host=");
    if (h >= 0) {
      int end = s.indexOf(' ', h);
      return s.substring(h + 5, end < 0 ? s.length() : end);
    }
    return s.contains(" ") || s.contains("/") ? null : s;
  }

  /** A destructive method ({@code delete_bucket}, {@code flushall}) of a remote client, unless it is a dry run. */
  void destructiveMethod(String name, int receiverFrom, Map<String, int[]> kw) {
    // a server-side dry run (kubernetes dry_run="All", boto3 DryRun=True) changes nothing
    boolean dryRun = kw.containsKey("dry_run") || kw.containsKey("DryRun");
    for (String d : DESTRUCTIVE_METHODS) {
      if (!dryRun && name.startsWith(d) && block.rootedIn(receiverFrom, Origin.CLIENT, 0)) {
        findings.facts().destructiveData(name + "()");
        break;
      }
    }
  }

  /** Judges {@code receiver.name(...)} if it uploads or runs a remote command; whether it was such a method. */
  boolean method(String name, int receiverFrom, List<int[]> args) {
    switch (name) {
      case "upload_file", "put" -> {
        // boto3's s3.upload_file(local, ...), paramiko's sftp.put(local, remote): the local file leaves the machine
        if (!args.isEmpty() && (block.rootedIn(receiverFrom, Origin.CLIENT, 0)
            || block.rootedIn(receiverFrom, Origin.REMOTE_SHELL, 0))) {
          values.pathArg(args.get(0)).ifPresent(shell::read);
          findings.network();
        }
      }
      case "exec_command", "run", "sudo" -> {
        if (!args.isEmpty() && block.rootedIn(receiverFrom, Origin.REMOTE_SHELL, 0)) {
          List<Part> cmd = values.evalString(args.get(0)[0], args.get(0)[1]);
          if (name.equals("sudo")) {
            findings.add(Flag.high("sudo", "runs as root with sudo on a remote host"));
          }
          if (cmd != null) {
            shell.runShell(PythonBlock.SHELL_TEXT.source(cmd));
          }
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }
}
