package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.abbreviate;
import static io.interpreter4j.core.safety.bash.BashArgs.operands;
import static io.interpreter4j.core.safety.bash.BashArgs.suffix;
import static io.interpreter4j.core.safety.shell.ShellWords.basename;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.rules.SecretNames;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The network: tools that talk to it, what curl and wget upload and save, credentials piped into them, host names
 * built at run time, raw sockets, and web servers started on a folder that holds keys.
 */
final class NetworkCommands {

  private static final Set<String> NETWORK = Set.of(
      "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "sftp", "ftp", "lftp", "http", "https", "xh",
      "aria2c", "mail", "mailx", "sendmail", "mutt", "openssl");
  /** Tools that resolve a host name: a name built at run time can carry data out through DNS. */
  private static final Set<String> RESOLVERS = Set.of(
      "dig", "nslookup", "host", "drill", "kdig", "delv", "getent", "ping", "ping6", "resolvectl", "traceroute", "mtr");
  private static final Set<String> RAW_SOCKETS = Set.of("nc", "ncat", "netcat", "socat", "telnet");
  private static final Pattern URL_TAIL = Pattern.compile("[?#].*$");

  private NetworkCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, NetworkCommands::curl, "curl");
    CommandHandler.register(table, NetworkCommands::wget, "wget");
    CommandHandler.register(table, NetworkCommands::copyRemote, "scp", "rsync");
    CommandHandler.register(table, NetworkCommands::webServer, "npx", "http-server", "serve", "live-server");
  }

  /** Every network tool: the block talks to the network, and a credential piped into the tool leaves the machine. */
  static void networkTool(BashAnalyzer bash, Invocation inv) {
    if (NETWORK.contains(inv.name())) {
      bash.findings().network();
      secretPipedOut(bash, inv);
    }
  }

  private static void copyRemote(BashAnalyzer bash, Invocation inv) {
    for (String t : inv.texts()) {
      if (!t.startsWith("-") && isRemote(t)) {
        bash.findings().network();
      }
    }
  }

  /** http-server, serve, live-server, and the same through npx: a web server on a folder. */
  private static void webServer(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    List<String> texts = inv.texts();
    List<Word> ops = operands(inv.args(), Set.of("-p", "--port", "-a", "--address", "-l", "--listen", "-c"));
    if (name.equals("npx") && !ops.isEmpty()) {
      String tool = ops.get(0).text();
      if (Set.of("http-server", "serve", "live-server").contains(tool)) {
        serves(bash, "npx " + tool, ops.size() > 1 ? ops.get(1) : null, texts);
      }
    } else if (!name.equals("npx")) {
      serves(bash, name, ops.isEmpty() ? null : ops.get(0), texts);
    }
  }

  /** Facts only a combination makes dangerous: DNS names built at run time, raw sockets. */
  static void observe(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    List<Word> args = inv.args();
    if (RESOLVERS.contains(name)) {
      for (Word w : args) {
        if (w.literal() == null && !w.text().startsWith("-") && !w.text().startsWith("+")) {
          bash.findings().facts().dynamicDns(name + " " + abbreviate(w.text()));
        }
      }
    } else if (RAW_SOCKETS.contains(name)) {
      bash.findings().facts().rawSocket(name);
    } else if (name.equals("curl") || name.equals("wget")) {
      for (Word w : args) {
        String t = w.text();
        if ((t.startsWith("http://") || t.startsWith("https://")) && w.literal() == null) {
          String hostPart = t.substring(t.indexOf("//") + 2);
          int slash = hostPart.indexOf('/');
          if ((slash < 0 ? hostPart : hostPart.substring(0, slash)).contains("$")) {
            bash.findings().facts().dynamicDns(name + " " + abbreviate(t));
          }
        }
      }
    }
  }

  /** A network tool reading a credential from an earlier stage of its pipeline ({@code gh auth token | curl -d @-}). */
  private static void secretPipedOut(BashAnalyzer bash, Invocation inv) {
    for (Invocation feeder = inv.upstream(); feeder != null; feeder = feeder.upstream()) {
      String what = secretOutput(feeder);
      if (what != null) {
        bash.findings().add(Flag.high("secret-exfiltration", "sends " + what + " over the network (" + feeder.name() + " | "
            + inv.name() + ")"));
        return;
      }
    }
  }

  /**
   * Commands whose output is a credential: exported private keys, keychain and password-manager entries, access tokens
   * of forges and clouds, secret-named environment variables, the shell's history. Piped into a network tool, the
   * credential leaves the machine.
   */
  private static String secretOutput(Invocation inv) {
    List<String> t = inv.texts();
    String verb = t.isEmpty() ? "" : t.get(0);
    return switch (inv.name()) {
      case "gpg", "gpg2" -> t.stream().anyMatch(a -> a.startsWith("--export-secret")) ? "exported private keys" : null;
      case "security" -> verb.startsWith("find-") && verb.endsWith("password") || verb.equals("dump-keychain")
          ? "the keychain" : null;
      case "pass", "gopass" -> verb.equals("show") || !verb.isEmpty() && !verb.startsWith("-") && !Set.of("ls", "list",
          "find", "search", "init", "git", "insert", "generate", "rm", "mv", "cp", "edit").contains(verb) ? "a password" : null;
      case "op", "bw", "lpass", "keepassxc-cli" -> Set.of("read", "get", "show", "item").contains(verb) ? "a password" : null;
      case "gh", "glab" -> t.size() >= 2 && verb.equals("auth") && t.get(1).equals("token") ? "the forge's token" : null;
      case "gcloud" -> t.stream().anyMatch(a -> a.startsWith("print-") && a.endsWith("token")) ? "a cloud access token" : null;
      case "az" -> t.contains("get-access-token") ? "a cloud access token" : null;
      case "aws" -> t.contains("get-login-password") || t.contains("export-credentials") || t.contains("get-session-token")
          || verb.equals("configure") && t.stream().anyMatch(a -> a.contains("secret") || a.contains("session_token"))
          ? "cloud credentials" : null;
      case "vault" -> verb.equals("read") || verb.equals("kv") && t.contains("get") || verb.equals("print") ? "a vault secret" : null;
      case "kubectl" -> verb.equals("config") && t.contains("view") && t.contains("--raw")
          || verb.equals("get") && t.size() > 1 && t.get(1).startsWith("secret") ? "cluster credentials" : null;
      case "printenv" -> t.stream().anyMatch(SecretNames::isSecret) ? "a secret environment variable" : null;
      case "echo", "printf" -> inv.args().stream().anyMatch(NetworkCommands::namesSecretVariable) ? "a secret environment variable" : null;
      case "history" -> "the shell's history";
      default -> null;
    };
  }

  private static boolean namesSecretVariable(Word w) {
    for (Part p : w.parts()) {
      if (p.kind() == PartKind.VAR && SecretNames.isSecret(p.text())) {
        return true;
      }
    }
    return false;
  }

  private static void curl(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
    Set<String> dataOpts = Set.of("-d", "--data", "--data-binary", "--data-urlencode", "--data-ascii", "--json");
    for (int k = 0; k < args.size(); k++) {
      String t = texts.get(k);
      Word value = k + 1 < args.size() ? args.get(k + 1) : null;
      if (dataOpts.contains(t) && value != null) {
        String v = value.text();
        int at = v.indexOf('@');
        if (at >= 0 && (at == 0 || t.equals("--data-urlencode"))) {
          bash.paths().uploaded(suffix(value, at + 1));
        }
      } else if ((t.equals("-F") || t.equals("--form")) && value != null) {
        String v = value.text();
        int at = v.indexOf("=@");
        int lt = v.indexOf("=<");
        int idx = at >= 0 ? at : lt;
        if (idx >= 0) {
          bash.paths().uploaded(suffix(value, idx + 2));
        }
      } else if ((t.equals("-T") || t.equals("--upload-file")) && value != null) {
        bash.paths().uploaded(value);
      } else if ((t.equals("-o") || t.equals("--output")) && value != null) {
        Target target = bash.scope().target(value);
        if (target != null) {
          bash.scope().addDownloaded(target.path());
        }
      } else if (t.startsWith("-d@") || t.startsWith("-T") && t.length() > 2) {
        bash.paths().uploaded(suffix(args.get(k), t.startsWith("-d@") ? 3 : 2));
      }
    }
    boolean remoteName = texts.stream().anyMatch(t -> t.equals("--remote-name") || t.equals("--remote-name-all")
        || t.startsWith("-") && !t.startsWith("--") && t.indexOf('O') > 0);
    if (remoteName && bash.scope().cwd() != null) {
      // curl -O saves each URL under its own name in the current folder
      for (String t : texts) {
        if (t.startsWith("http://") || t.startsWith("https://") || t.startsWith("ftp://")) {
          String file = basename(URL_TAIL.matcher(t).replaceAll(""));
          if (!file.isEmpty() && !file.contains(":")) {
            bash.scope().addDownloaded(bash.scope().cwd().resolve(file).normalize());
          }
        }
      }
    }
  }

  private static void wget(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
    boolean outputNamed = false;
    for (int k = 0; k < args.size(); k++) {
      String t = texts.get(k);
      if (t.startsWith("--post-file=") || t.startsWith("--body-file=")) {
        bash.paths().uploaded(suffix(args.get(k), t.indexOf('=') + 1));
      } else if ((t.equals("-O") || t.equals("--output-document")) && k + 1 < args.size()) {
        outputNamed = true;
        if (!texts.get(k + 1).equals("-")) {
          Target target = bash.scope().target(args.get(k + 1));
          if (target != null) {
            bash.scope().addDownloaded(target.path());
          }
        }
      } else if (t.startsWith("-O") || t.startsWith("--output-document=")) {
        outputNamed = true;
      }
    }
    if (!outputNamed && bash.scope().cwd() != null) {
      for (String t : texts) {
        if (t.startsWith("http://") || t.startsWith("https://") || t.startsWith("ftp://")) {
          String file = basename(URL_TAIL.matcher(t).replaceAll(""));
          if (!file.isEmpty() && !file.contains(":")) {
            bash.scope().addDownloaded(bash.scope().cwd().resolve(file).normalize());
          }
        }
      }
    }
  }

  private static boolean isRemote(String operand) {
    int colon = operand.indexOf(':');
    return colon > 0 && !operand.startsWith("/") && !operand.startsWith("./") && operand.indexOf('/') > colon - 1
        || (colon > 0 && operand.indexOf('/') < 0) || operand.startsWith("rsync://");
  }

  /**
   * A web server started on a folder (python -m http.server, php -S, http-server): serving the home folder or one
   * that holds keys hands them to whoever connects.
   */
  static void serves(BashAnalyzer bash, String how, Word dir, List<String> texts) {
    Target t = dir == null ? (bash.scope().cwd() == null ? null : new Target(bash.scope().cwd(), null)) : bash.scope().through(bash.scope().target(dir));
    if (t == null || !bash.judge().containsSecrets(t.path())) {
      return;
    }
    boolean loopback = texts.stream().anyMatch(a -> a.equals("127.0.0.1") || a.equals("localhost") || a.equals("::1")
        || a.startsWith("127.0.0.1:") || a.startsWith("localhost:"));
    bash.findings().add(loopback ? Flag.medium("serve-secrets", "serves " + bash.judge().display(t) + ", which holds keys, on this machine (" + how + ")")
        : Flag.high("serve-secrets", "serves " + bash.judge().display(t) + ", which holds keys, to the network (" + how + ")"));
  }
}
