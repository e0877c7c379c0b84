package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.rules.Databases;
import io.interpreter4j.core.safety.rules.RemoteSystems;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The reach of a JavaScript, Ruby or R block to other machines: network calls (and downloads to a file), raw
 * sockets, look-ups of computed host names, clients of remote databases and cloud services, deletions through them
 * or over HTTP.
 */
final class ScriptRemote extends ScriptCallRules {

  private static final Set<String> DESTRUCTIVE_METHOD_PREFIXES = Set.of(
      "delete", "remove", "destroy", "drop", "flush", "truncate", "purge", "terminate", "empty", "del", "unlink",
      "wipe", "erase");

  ScriptRemote(ScriptBlock block) {
    super(block);
  }

  /** Judges a call of a network or remote-client API; {@code arg} is its main argument. */
  void call(Api api, String name, String dotted, List<int[]> args, Map<String, int[]> kw, int[] arg) {
    switch (api.kind()) {
      case NETWORK -> {
        findings.network();
        findings.facts().fetched(dotted);
        if (name.endsWith("download.file") && args.size() > 1) {
          block.pathWords(args.get(1)).forEach(w -> {
            shell.write(w, false);
            shell.downloaded(w);
          });
        }
        httpDelete(name, args, kw);
      }
      case SOCKET -> {
        findings.network();
        findings.facts().rawSocket(dotted);
      }
      case DNS -> {
        if (arg != null && values.literalOf(arg) == null) {
          findings.facts().dynamicDns(dotted);
        }
      }
      case CLOUD_CLIENT -> findings.facts().remoteData(dotted);
      case REMOTE_CLIENT -> remoteClient(dotted, args, kw);
      default -> throw new IllegalArgumentException("not a remote API: " + api.kind());
    }
  }

  /** A destructive method ({@code repos.delete}, {@code flushall}) of a remote client. */
  void method(String name, int receiverFrom) {
    if (isDestructiveMethod(name) && block.rootedIn(receiverFrom, Set.of(Kind.REMOTE_CLIENT, Kind.CLOUD_CLIENT), 0)) {
      findings.facts().destructiveData(name + "()");
    }
  }

  /** fetch(url, {method: 'DELETE'}), axios.delete(url), httr::DELETE(url), VERB("DELETE", url), HTTParty.delete(url). */
  private void httpDelete(String name, List<int[]> args, Map<String, int[]> kw) {
    String last = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    int[] url = null;
    if (last.equals("delete") || name.endsWith("Delete.new")) {
      url = args.isEmpty() ? null : args.get(0);
    } else if (last.equals("verb") && args.size() > 1 && "DELETE".equalsIgnoreCase(values.literalOf(args.get(0)))) {
      url = args.get(1);
    } else if (kw.containsKey("method") && "DELETE".equalsIgnoreCase(values.literalOf(kw.get("method")))) {
      url = args.isEmpty() ? kw.get("url") : args.get(0);
    }
    if (url != null) {
      findings.add(RemoteSystems.httpDelete(values.literalOf(url), name));
    }
  }

  private void remoteClient(String dotted, List<int[]> args, Map<String, int[]> kw) {
    String host = null;
    for (String key : List.of("host", "url", "uri", "server", "hostname", "connectionString")) {
      if (kw.containsKey(key)) {
        String v = values.literalOf(kw.get(key));
        if (v != null) {
          host = v.contains("://") ? Databases.hostOfUrl(v) : v;
        }
      }
    }
    if (host == null) {
      for (int[] a : args) {
        String v = values.literalOf(a);
        if (v != null && v.contains("://")) {
          host = Databases.hostOfUrl(v);
        }
      }
    }
    if (host != null && !Databases.isLocalHost(host)) {
      findings.facts().remoteData(host);
    }
  }

  private static boolean isDestructiveMethod(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (String p : DESTRUCTIVE_METHOD_PREFIXES) {
      if (n.startsWith(p)) {
        return true;
      }
    }
    return n.endsWith("command") && (n.startsWith("delete") || n.startsWith("drop"));
  }
}
