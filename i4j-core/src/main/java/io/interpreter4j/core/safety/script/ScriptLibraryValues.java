package io.interpreter4j.core.safety.script;

import static io.interpreter4j.core.safety.code.ValueParts.glob;
import static io.interpreter4j.core.safety.code.ValueParts.text;
import static io.interpreter4j.core.safety.script.ScriptValues.unknown;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.code.ValueParts;
import io.interpreter4j.core.safety.rules.SecretNames;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the library calls of a JavaScript, Ruby or R block return when they build paths: joins and pastes, home,
 * temporary and working folders, expansions, the environment with its defaults, listings and globs.
 */
final class ScriptLibraryValues {

  private final ScriptSource src;
  private final ScriptValues values;
  private final Dialect dialect;
  private final PathJudge judge;
  private final Findings findings;

  ScriptLibraryValues(ScriptSource src, ScriptValues values, PathJudge judge, Findings findings) {
    this.src = src;
    this.values = values;
    this.dialect = src.dialect;
    this.judge = judge;
    this.findings = findings;
  }

  List<Part> callValue(String name, int from, int to, int at) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(from, to, kw);
    switch (name) {
      case "path.join", "path.resolve", "path.posix.join", "path.posix.resolve", "File.join", "file.path",
           "fs.path", "Pathname.new", "Pathname", "fs::path" -> {
        List<Part> out = new ArrayList<>();
        for (int[] a : args) {
          List<Part> v = values.eval(a[0], a[1]);
          ValueParts.join(out, v == null ? List.of(unknown(src.exprName(a[0], a[1]))) : v, true);
        }
        if (name.equals("path.resolve") && (out.isEmpty() || !out.get(0).text().startsWith("/")) && values.cwd() != null) {
          List<Part> abs = new ArrayList<>(List.of(text(values.cwd().toString())));
          ValueParts.join(abs, out, true);
          return abs;
        }
        return out;
      }
      case "paste0", "paste", "str_c", "glue", "stringr.str_c" -> {
        String sep = name.equals("paste") ? " " : "";
        if (kw.containsKey("sep")) {
          sep = values.literalOf(kw.get("sep"));
          if (sep == null) {
            return List.of(unknown("paste"));
          }
        }
        List<Part> out = new ArrayList<>();
        for (int k = 0; k < args.size(); k++) {
          List<Part> v = values.eval(args.get(k)[0], args.get(k)[1]);
          if (k > 0 && !sep.isEmpty()) {
            out.add(text(sep));
          }
          out.addAll(v == null ? List.of(unknown("paste")) : v);
        }
        return out;
      }
      case "os.homedir", "Dir.home", "Etc.getpwuid.dir" -> {
        return List.of(text(values.home()));
      }
      case "os.tmpdir", "tempdir", "Dir.tmpdir" -> {
        return name.equals("tempdir") ? List.of(text(judge.newTempDirectory().toString())) : List.of(text("/tmp"));
      }
      case "tempfile", "fs.mkdtempSync", "fs.mkdtemp", "Dir.mktmpdir", "Tempfile.new", "Tempfile.create", "file_temp",
           "fs.file_temp", "withr.local_tempfile" -> {
        return List.of(text(judge.newTempDirectory().toString()));
      }
      case "process.cwd", "getwd", "Dir.pwd", "here.here", "here" -> {
        return List.of(text(values.cwd() == null ? "." : values.cwd().toString()));
      }
      case "path.dirname", "File.dirname", "dirname" -> {
        List<Part> v = args.isEmpty() ? null : values.eval(args.get(0)[0], args.get(0)[1]);
        return v == null ? null : ScriptValues.parent(v);
      }
      case "File.expand_path", "path.expand", "normalizePath", "fs.path_expand", "fs.path_abs", "path.normalize",
           "String", "as.character", "toString", "File.absolute_path", "fs.realpathSync", "fs.path_norm", "URI",
           "URI.parse", "URL", "url.URL" -> {
        if (args.isEmpty()) {
          return null;
        }
        List<Part> v = values.eval(args.get(0)[0], args.get(0)[1]);
        if (v == null) {
          return null;
        }
        v = values.expandUser(v);
        if ((name.equals("File.expand_path") || name.equals("normalizePath")) && args.size() > 1) {
          List<Part> base = values.eval(args.get(1)[0], args.get(1)[1]);
          if (base != null && !(v.get(0).kind() == PartKind.TEXT && v.get(0).text().startsWith("/"))) {
            List<Part> joined = new ArrayList<>(values.expandUser(base));
            ValueParts.join(joined, v, true);
            return joined;
          }
        }
        return v;
      }
      case "Sys.getenv", "ENV.fetch", "process.env.get", "ENV.[]" -> {
        return envValue(from, to, kw);
      }
      case "fs.path_home", "path_home" -> {
        List<Part> out = new ArrayList<>(List.of(text(values.home())));
        for (int[] a : args) {
          List<Part> v = values.eval(a[0], a[1]);
          ValueParts.join(out, v == null ? List.of(unknown("part")) : v, true);
        }
        return out;
      }
      case "R.home" -> {
        List<Part> v = args.isEmpty() ? List.of() : values.eval(args.get(0)[0], args.get(0)[1]);
        List<Part> out = new ArrayList<>(List.of(text("/usr/lib/R")));
        if (v != null && !v.isEmpty()) {
          ValueParts.join(out, v, true);
        }
        return out;
      }
      case "list.files", "dir", "list.dirs", "Dir.children", "Dir.entries", "fs.readdirSync", "fs.readdir",
           "fs.dir_ls", "dir_ls" -> {
        List<Part> dir = args.isEmpty() ? List.of(text(".")) : values.eval(args.get(0)[0], args.get(0)[1]);
        if (dir == null) {
          return null;
        }
        List<Part> out = new ArrayList<>(dialect == Dialect.R ? values.expandUser(dir) : dir);
        ValueParts.join(out, List.of(glob("*")), true);
        return out;
      }
      case "Dir.glob", "Sys.glob", "glob.sync", "glob", "fast-glob.sync", "globSync", "Dir.[]" -> {
        List<Part> pattern = args.isEmpty() ? null : values.eval(args.get(0)[0], args.get(0)[1]);
        if (pattern == null) {
          return null;
        }
        List<Part> out = new ArrayList<>();
        for (Part p : dialect == Dialect.R ? values.expandUser(pattern) : pattern) {
          out.add(p.kind() == PartKind.TEXT ? glob(p.text()) : p);
        }
        return out;
      }
      case "require" -> {
        return null;
      }
      default -> {
        Api api = src.api(name);
        if (api != null && (api.kind() == Kind.SPAWN || api.kind() == Kind.ARGV)) {
          return List.of(unknown("pid"));
        }
        return List.of(unknown(src.exprName(at, to + 1)));
      }
    }
  }

  /** ENV['X'], ENV.fetch('X', default), Sys.getenv("X", "default"), Sys.getenv("X", unset = ...). */
  List<Part> envValue(int from, int to, Map<String, int[]> kwIn) {
    Map<String, int[]> kw = kwIn == null ? new HashMap<>() : kwIn;
    List<int[]> args = src.arguments(from, to, kw);
    if (args.isEmpty()) {
      return null;
    }
    String key = values.literalOf(args.get(0));
    if ("HOME".equals(key)) {
      return List.of(text(values.home()));
    }
    if (key != null) {
      if (SecretNames.isSecret(key)) {
        findings.facts().secretVariable(key);
      }
    }
    int[] def = kw.containsKey("unset") ? kw.get("unset") : args.size() > 1 ? args.get(1) : null;
    if (def != null) {
      List<Part> v = values.eval(def[0], def[1]);
      if (v != null && !(v.size() == 1 && v.get(0).kind() == PartKind.TEXT && v.get(0).text().isEmpty())) {
        return v;
      }
    }
    return List.of(unknown(key == null ? "env" : key));
  }
}
