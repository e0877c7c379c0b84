package io.interpreter4j.runtime.repl;

import java.util.regex.Pattern;

/** pip installs in bash blocks: spotting them, and the line that activates {@code WORKDIR/.venv} before them. */
final class BashInstalls {

  /** {@code pip install}, {@code pip3.12 install}, {@code python3 -m pip install}, {@code uv pip install}, by name. */
  private static final Pattern PIP_INSTALL = Pattern.compile(
      "(?:^|[\\s;&|(`{])(?:pip3?(?:\\.\\d+)?|python3?(?:\\.\\d+)?\\s+-m\\s+pip|uv\\s+pip)\\s+install\\b");

  private BashInstalls() {}

  static boolean installs(String code) {
    return code.contains("pip") && PIP_INSTALL.matcher(code).find();
  }

  /**
   * One line, put in front of the block's first line (so line numbers stay): unless a virtual environment is active
   * or python3 runs in one, create {@code venv} if missing and activate it in this shell; a failure ends the block
   * with status 1 before anything installs globally.
   */
  static String activationLine(WorkdirVenv venv, String python) {
    String dir = quote(venv.dir().toString());
    String py = quote(python);
    return "if [ -z \"${VIRTUAL_ENV:-}\" ] && ! " + py
        + " -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)' 2>/dev/null; then { [ -f " + dir
        + "/pyvenv.cfg ] || " + py + " -m venv " + dir + "; } && export VIRTUAL_ENV=" + dir + " PATH=" + dir
        + "/bin:\"$PATH\" && hash -r || return 1; fi; ";
  }

  private static String quote(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }
}
