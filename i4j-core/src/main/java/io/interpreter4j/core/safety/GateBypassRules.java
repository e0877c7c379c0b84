package io.interpreter4j.core.safety;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Code that would get around the approval gate by acting as the user on interpreter4j's own API: it could approve
 * its own blocks or start sessions that run code unasked. Checked on the text of a block in any language (whatever
 * the analyzer of its language makes of it), each a HIGH flag:
 * <ul>
 *   <li>{@code server-token}: the block names {@code I4J_TOKEN}, the server's token (interpreters never inherit it);
 *   <li>{@code local-api-credentials}: a request to this machine (127.0.0.1, localhost, [::1]) that carries
 *   credentials: an {@code Authorization} or bearer header, a {@code ?token=} parameter, the dashboard cookie.
 *   The server's port is not known here, so any local service is judged alike;
 *   <li>{@code other-process-environment}: the block reads another process's environment, where the server's
 *   token and the provider keys live: {@code /proc/PID/environ} however the path is built, {@code ps} with its
 *   {@code e} option, psutil's {@code environ()}.
 * </ul>
 * Pure and stateless.
 */
final class GateBypassRules {

  private static final Pattern LOOPBACK = Pattern.compile(
      "(?<![\\w.-])(?:localhost|127(?:\\.\\d{1,3}){1,3}|0\\.0\\.0\\.0|\\[::1?]|ip6-localhost)(?![\\w-])",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern CREDENTIALS = Pattern.compile(
      "\\bauthorization\\b|\\bbearer\\b|--oauth2-bearer|[?&]token=|\\bi4j_auth\\b|\\bX-Api-Key\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern HTTP_CLIENT = Pattern.compile(
      "https?://|\\b(?:curl|wget|http|https|requests|urllib\\d?|httpx|aiohttp|fetch|axios|socket|nc|ncat|"
          + "Invoke-WebRequest|Invoke-RestMethod|HttpClient|HttpURLConnection|RestTemplate|httr|GET|POST)\\b");
  /** A path component named environ: "/environ", or a quoted "environ" given to a path join. */
  private static final Pattern ENVIRON_COMPONENT = Pattern.compile("[/'\"`]environ(?![\\w.])");
  private static final Pattern PROC = Pattern.compile("/proc(?![\\w-])");
  private static final Pattern OWN_ENVIRON = Pattern.compile("/proc/(?:self|thread-self)/environ");
  /** {@code ps} and its arguments up to the end of the command. */
  private static final Pattern PS = Pattern.compile("(?<![\\w./-])ps((?:[ \\t]+[^\\s|;&)`]+)*)");
  /** A word of BSD-style ps options (no dash): a, e, x, u, w, f, ... */
  private static final Pattern BSD_OPTIONS = Pattern.compile("[aeuxwfjlvsrcnhmgHLTUXZ]{1,8}");
  /** psutil's {@code Process.environ()}; Python's os.environ is a mapping, never called. */
  private static final Pattern ENVIRON_CALL = Pattern.compile("\\.environ\\s*\\(");

  private GateBypassRules() {}

  static void check(String code, Findings findings) {
    if (code.contains("I4J_TOKEN")) {
      findings.add(Flag.high("server-token",
          "uses interpreter4j's server token (I4J_TOKEN): code must not act on the API as the user"));
    }
    if (LOOPBACK.matcher(code).find() && CREDENTIALS.matcher(code).find() && HTTP_CLIENT.matcher(code).find()) {
      findings.add(Flag.high("local-api-credentials",
          "sends credentials to a server on this machine, which may be interpreter4j's own API"));
    }
    String what = otherProcessEnvironment(code);
    if (what != null) {
      findings.add(Flag.high("other-process-environment", "reads another process's environment (" + what
          + "), where interpreter4j's token and keys are"));
    }
  }

  /** How the block reads another process's environment, or null. */
  private static String otherProcessEnvironment(String code) {
    String withoutOwn = OWN_ENVIRON.matcher(code).replaceAll("/proc/self/");
    if (PROC.matcher(withoutOwn).find() && ENVIRON_COMPONENT.matcher(withoutOwn).find()) {
      return "/proc/PID/environ";
    }
    if (ENVIRON_CALL.matcher(code).find() && code.contains("psutil")) {
      return "psutil environ()";
    }
    Matcher ps = PS.matcher(code);
    while (ps.find()) {
      for (String arg : ps.group(1).strip().split("[ \\t]+")) {
        if (showsEnvironment(arg)) {
          return "ps " + arg;
        }
      }
    }
    return null;
  }

  /** A ps argument that adds the environment: BSD-style options holding {@code e} ({@code e}, {@code auxe}), or -E. */
  private static boolean showsEnvironment(String arg) {
    if (arg.equals("-E")) {
      return true;
    }
    return BSD_OPTIONS.matcher(arg).matches() && arg.indexOf('e') >= 0;
  }
}
