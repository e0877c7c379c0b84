package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Commands that change, for the whole user or machine, where package managers fetch code from: a registry, an index,
 * a mirror, a channel, a proxy, whether TLS and checksums are checked ({@code pip config set global.index-url},
 * {@code npm config set registry}, {@code gem sources --add}, {@code conda config --add channels}, {@code go env -w
 * GOPROXY=}). Every later install, in any project, then runs code from there: HIGH, like writing the settings file
 * itself. The same settings for this project only ({@code --site}, {@code --location=project}, {@code --local},
 * {@code --env}) are the project's business; other user-wide settings are MEDIUM.
 */
public final class PackageSources implements RuleFamily {

  static final Set<String> TOOLS = Set.of(
      "pip", "pip3", "npm", "pnpm", "yarn", "gem", "bundle", "conda", "mamba", "micromamba", "poetry", "pdm", "go",
      "dotnet", "nuget", "composer");

  /** Setting names (their last segment) that say where packages come from or how they are checked. */
  private static final Set<String> SOURCE_KEYS = Set.of(
      "index-url", "extra-index-url", "trusted-host", "find-links", "index", "proxy", "https-proxy", "http-proxy",
      "cert", "client-cert", "registry", "strict-ssl", "ca", "cafile", "script-shell", "node-options", "ignore-scripts",
      "npmregistryserver", "unsafehttpwhitelist", "enablestrictssl", "httpsproxy", "httpproxy", "cafilepath",
      "channels", "default_channels", "channel_alias", "custom_channels", "ssl_verify", "allowlist_channels",
      "goproxy", "gosumdb", "gonosumdb", "goinsecure", "goflags", "gonoproxy", "goprivate", "gonosumcheck",
      "secure-http", "disable-tls", "repositories", "mirror", "disable_checksum_validation",
      "verify_ssl", "pypi.url", "pypi.verify_ssl", "sources");

  @Override
  public void judge(ToolCall call, Block block) {
    String tool = call.tool();
    List<String> words = call.words();
    switch (tool) {
      case "pip", "pip3" -> {
        if (words.size() >= 3 && words.get(0).equals("config") && words.get(1).equals("set")
            && !call.has("--site")) {
          setting(call, block, words.get(2), call.has("--global") ? "the whole machine" : "every project of the user");
        }
      }
      case "npm", "pnpm" -> {
        int k = words.size() >= 1 && words.get(0).equals("set") ? 1 : words.size() >= 2 && words.get(0).equals("config")
            && words.get(1).equals("set") ? 2 : -1;
        String location = call.value("--location", "-L");
        if (k > 0 && words.size() > k && !"project".equals(location)) {
          setting(call, block, words.get(k), call.has("-g", "--global") || "global".equals(location)
              ? "the whole machine" : "every project of the user");
        }
      }
      case "yarn" -> {
        if (words.size() >= 3 && words.get(0).equals("config") && words.get(1).equals("set")) {
          String key = words.get(2);
          // yarn 1 writes ~/.yarnrc; yarn 2+ (camelCase settings) writes the project's .yarnrc.yml unless -H
          boolean user = call.has("-H", "--home", "-g", "--global") || key.equals(key.toLowerCase(Locale.ROOT));
          if (user) {
            setting(call, block, key, "every project of the user");
          }
        }
      }
      case "gem" -> {
        if (!words.isEmpty() && words.get(0).equals("sources") && call.has("-a", "--add")) {
          block.flag(Flag.high("persistence", "adds a gem source every later gem install may fetch code from ("
              + call.line() + ")"));
        }
      }
      case "bundle" -> {
        int k = words.size() >= 2 && words.get(0).equals("config") && (words.get(1).equals("set")) ? 2
            : words.size() >= 3 && words.get(0).equals("config") ? 1 : -1;
        if (k > 0 && words.size() > k && !call.has("--local")) {
          setting(call, block, words.get(k), "every project of the user");
        }
      }
      case "conda", "mamba", "micromamba" -> {
        if (!words.isEmpty() && words.get(0).equals("config") && !call.has("--env", "--file")
            && call.has("--add", "--append", "--prepend", "--set")) {
          String key = call.value("--add", "--append", "--prepend", "--set");
          setting(call, block, key == null ? "" : key, call.has("--system") ? "the whole machine" : "every environment of the user");
        }
      }
      case "poetry", "pdm" -> {
        if (words.size() >= 3 && words.get(0).equals("config") && !call.has("--local", "-l", "--unset")) {
          setting(call, block, words.get(1), "every project of the user");
        }
      }
      case "go" -> {
        if (!words.isEmpty() && words.get(0).equals("env") && call.has("-w")) {
          for (String w : words.subList(1, words.size())) {
            int eq = w.indexOf('=');
            if (eq > 0) {
              setting(call, block, w.substring(0, eq), "every Go build of the user");
            }
          }
        }
      }
      case "dotnet", "nuget" -> {
        List<String> ops = call.operands(List.of("-n", "--name", "-u", "--username", "-p", "--password"));
        int at = tool.equals("dotnet") ? 1 : 0;
        if (ops.size() > at + 2 && (tool.equals("nuget") || ops.get(0).equals("nuget"))
            && ops.get(at).equals("add") && ops.get(at + 1).equals("source") && !call.has("--configfile")) {
          block.flag(Flag.high("persistence", "adds a package source every later restore may fetch code from ("
              + call.line() + ")"));
        }
      }
      case "composer" -> {
        if (!words.isEmpty() && words.get(0).equals("config") && call.has("-g", "--global") && words.size() >= 2) {
          setting(call, block, words.get(1), "every project of the user");
        }
      }
      default -> {
        // not a package manager
      }
    }
  }

  private static void setting(ToolCall call, Block block, String key, String scope) {
    if (isSource(key)) {
      block.flag(Flag.high("persistence", "changes where " + scope + " fetches packages from (" + call.line() + ")"));
    } else {
      block.flag(Flag.medium("package-config", "changes package-manager settings of " + scope + " (" + call.line() + ")"));
    }
  }

  /** Whether a setting name ("global.index-url", "@acme:registry", "GOPROXY") says where packages come from. */
  static boolean isSource(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    int eq = k.indexOf('=');
    k = eq > 0 ? k.substring(0, eq) : k;
    if (SOURCE_KEYS.contains(k) || k.endsWith(":registry") || k.startsWith("repositories.") || k.startsWith("mirror.")
        || k.startsWith("certificates.") || k.startsWith("pypi.") || k.startsWith("sources.")) {
      return true;
    }
    int dot = k.lastIndexOf('.');
    return dot >= 0 && SOURCE_KEYS.contains(k.substring(dot + 1));
  }
}
