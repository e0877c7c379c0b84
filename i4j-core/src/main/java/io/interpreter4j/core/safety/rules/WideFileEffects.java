package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * File effects whose reach the language analyzers lose in computed paths, judged on the text of a block in any
 * language:
 * <ul>
 *   <li>{@code home-wide-delete}: a recursive glob over the whole home folder ({@code Path.home().rglob},
 *   {@code Dir.glob(File.join(Dir.home, "**"...))}, {@code list.files("~", recursive = TRUE)}) in a block that
 *   deletes files;
 *   <li>{@code extract-to-root}: an archive extracted into the filesystem root, named directly ({@code "/"}) or
 *   through a variable computed to it ({@code os.path.join(os.sep, "")}, {@code Path("/")});
 *   <li>{@code user-folder-delete}: a recursive delete of a folder named by an environment variable that holds a
 *   user-wide folder (R_LIBS_USER, HOME, XDG_*_HOME, GOPATH, CARGO_HOME...).
 * </ul>
 * Pure and stateless.
 */
public final class WideFileEffects {

  private static final String HOME_EXPR =
      "(?:(?:pathlib\\.)?Path\\.home\\(\\)|(?:pathlib\\.)?Path\\(\\s*['\"]~/?['\"]\\s*\\)\\.expanduser\\(\\)"
          + "|(?:pathlib\\.)?Path\\(\\s*os\\.path\\.expanduser\\(\\s*['\"]~/?['\"]\\s*\\)\\s*\\)|Dir\\.home|os\\.homedir\\(\\))";
  private static final Pattern HOME_VAR = Pattern.compile("\\b(\\w+)\\s*(?:=|<-)\\s*" + HOME_EXPR + "\\s*$",
      Pattern.MULTILINE);
  private static final Pattern HOME_GLOB_LITERAL = Pattern.compile(
      HOME_EXPR + "\\s*\\.r?glob\\s*\\(|\\bglob\\.i?glob\\s*\\(\\s*os\\.path\\.expanduser\\(\\s*['\"]~/\\*\\*"
          + "|\\bglob\\.i?glob\\s*\\(\\s*['\"]~?/home/\\w+/\\*\\*|\\bDir\\.glob\\s*\\(\\s*(?:File\\.join\\(\\s*Dir\\.home|['\"]~/\\*\\*|\"#\\{Dir\\.home}/\\*\\*)"
          + "|\\b(?:list\\.files|dir_ls|dir\\.ls)\\s*\\(\\s*(?:path\\s*=\\s*)?['\"]~/?['\"][^)]*recurs\\w*\\s*=\\s*(?:TRUE|T)\\b"
          + "|\\bos\\.walk\\s*\\(\\s*(?:os\\.path\\.expanduser\\(\\s*['\"]~['\"]\\s*\\)|" + HOME_EXPR + ")");
  private static final Pattern DELETES = Pattern.compile(
      "\\.unlink\\s*\\(|\\bos\\.(?:remove|unlink)\\s*\\(|\\bshutil\\.rmtree\\s*\\(|\\.rmdir\\s*\\(|\\bFile\\.(?:delete|unlink)\\b"
          + "|\\bFileUtils\\.rm\\w*|\\bfile\\.remove\\s*\\(|\\bunlink\\s*\\(|\\bfs\\.(?:unlink|rm)\\w*|\\bfile_delete\\s*\\(");

  private static final Pattern ROOT_VAR = Pattern.compile(
      "\\b(\\w+)\\s*=\\s*(?:os\\.path\\.join\\(\\s*os\\.sep\\s*(?:,\\s*['\"]['\"]\\s*)?\\)|os\\.sep|['\"]/['\"]"
          + "|(?:pathlib\\.)?Path\\(\\s*(?:os\\.sep|['\"]/['\"])\\s*\\)|os\\.path\\.(?:abspath|normpath|realpath)\\(\\s*(?:os\\.sep|['\"]/['\"])\\s*\\)"
          + "|(?:pathlib\\.)?Path\\(\\s*['\"]\\w*['\"]\\s*\\)\\.(?:absolute|resolve)\\(\\)\\.anchor|(?:pathlib\\.)?Path\\.cwd\\(\\)\\.anchor)\\s*$",
      Pattern.MULTILINE);
  private static final Pattern EXTRACT = Pattern.compile(
      "\\b(?:extractall|extract|unpack_archive)\\s*\\(\\s*(?:[^,()]+,\\s*)?(?:path\\s*=\\s*|extract_dir\\s*=\\s*)?([\\w.]+|['\"]/['\"])\\s*[,)]"
          + "|\\b(?:untar|unzip)\\s*\\([^)]*\\bexdir\\s*=\\s*([\\w.]+|['\"]/['\"])"
          + "|\\btar\\.x\\s*\\(\\s*\\{[^}]*\\b(?:cwd|C)\\s*:\\s*([\\w.]+|['\"]/['\"])");

  private static final Pattern USER_FOLDER_VAR = Pattern.compile(
      "\\b(\\w+)\\s*(?:=|<-)\\s*(?:Sys\\.getenv|os\\.environ\\.get|os\\.getenv|ENV\\.fetch|process\\.env\\.?)\\s*[\\[(]?\\s*['\"]?"
          + "(R_LIBS_USER|HOME|USERPROFILE|XDG_(?:DATA|CONFIG|CACHE|STATE)_HOME|GOPATH|CARGO_HOME|RUSTUP_HOME|CONDA_PREFIX"
          + "|PYENV_ROOT|NVM_DIR|GEM_HOME|APPDATA|LOCALAPPDATA)\\b");

  private WideFileEffects() {}

  /** The flags of a block's text. */
  public static List<Flag> judge(String code) {
    List<Flag> out = new ArrayList<>();
    if (DELETES.matcher(code).find() && homeGlob(code)) {
      out.add(Flag.high("home-wide-delete", "deletes files found by a recursive search of the whole home folder"));
    }
    String root = extractToRoot(code);
    if (root != null) {
      out.add(Flag.high("extract-to-root", "extracts an archive into the filesystem root (" + root + ")"));
    }
    Matcher v = USER_FOLDER_VAR.matcher(code);
    while (v.find()) {
      String name = Pattern.quote(v.group(1));
      Pattern del = Pattern.compile("\\b(?:unlink\\s*\\(\\s*" + name + "\\s*,[^)]*recursive\\s*=\\s*(?:TRUE|T)\\b"
          + "|shutil\\.rmtree\\s*\\(\\s*" + name + "\\s*[,)]|FileUtils\\.rm_r\\w*\\s*\\(?\\s*" + name + "\\b"
          + "|fs\\.rm(?:Sync|dirSync)?\\s*\\(\\s*" + name + "\\s*,[^)]*recursive\\s*:\\s*true"
          + "|dir_delete\\s*\\(\\s*" + name + "\\s*\\))");
      if (del.matcher(code).find()) {
        out.add(Flag.high("user-folder-delete", "deletes the whole folder $" + v.group(2) + " names, recursively"));
        break;
      }
    }
    return out;
  }

  private static boolean homeGlob(String code) {
    if (HOME_GLOB_LITERAL.matcher(code).find()) {
      return true;
    }
    Matcher m = HOME_VAR.matcher(code);
    while (m.find()) {
      String v = Pattern.quote(m.group(1));
      if (Pattern.compile("\\b" + v + "\\s*\\.r?glob\\s*\\(|\\bos\\.walk\\s*\\(\\s*" + v + "\\s*\\)"
          + "|\\bDir\\.glob\\s*\\(\\s*(?:File\\.join\\(\\s*" + v + "|\"#\\{" + v + "}/\\*\\*)").matcher(code).find()) {
        return true;
      }
    }
    return false;
  }

  private static String extractToRoot(String code) {
    List<String> roots = new ArrayList<>();
    Matcher r = ROOT_VAR.matcher(code);
    while (r.find()) {
      roots.add(r.group(1));
    }
    Matcher e = EXTRACT.matcher(code);
    while (e.find()) {
      String target = e.group(1) != null ? e.group(1) : e.group(2) != null ? e.group(2) : e.group(3);
      if (target.equals("\"/\"") || target.equals("'/'") || target.equals("os.sep") || roots.contains(target)) {
        return target;
      }
    }
    return null;
  }
}
