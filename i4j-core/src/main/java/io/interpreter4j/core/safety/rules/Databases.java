package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Database and cache clients (psql, mysql, mongosh, redis-cli...): a statement that deletes data is HIGH on a
 * server of another machine, MEDIUM on this machine's, and nothing on a file the project holds. The statement and
 * host classifiers are shared with the script analyzers, which see the same statements through drivers.
 */
public final class Databases implements RuleFamily {

  private static final Set<String> SQL_CLIENTS = Set.of(
      "psql", "pgcli", "mysql", "mariadb", "mycli", "sqlcmd", "mssql-cli", "clickhouse-client", "cqlsh", "usql",
      "cockroach", "snowsql", "bq", "duckdb", "sqlite3", "litecli", "trino", "presto", "vsql", "isql");
  private static final Set<String> MONGO = Set.of("mongosh", "mongo");
  private static final Set<String> REDIS = Set.of("redis-cli", "valkey-cli", "keydb-cli");
  private static final Set<String> DROPPERS = Set.of("dropdb", "dropuser", "mysqladmin");
  private static final Set<String> REDIS_DESTRUCTIVE = Set.of(
      "flushall", "flushdb", "del", "unlink", "shutdown", "config", "swapdb", "debug", "script", "function");
  private static final List<String> MONGO_DESTRUCTIVE = List.of(
      "deletemany", "deleteone", ".remove(", "dropdatabase", ".drop(", "dropcollection", "dropindexes", "findoneanddelete");

  static final Set<String> TOOLS = union(SQL_CLIENTS, MONGO, REDIS, DROPPERS);

  private static Set<String> union(Set<String> a, Set<String> b, Set<String> c, Set<String> d) {
    java.util.HashSet<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    all.addAll(c);
    all.addAll(d);
    return Set.copyOf(all);
  }

  @Override
  public void judge(ToolCall call, Block block) {
    String tool = call.tool();
    String host;
    String statement;
    if (REDIS.contains(tool)) {
      host = call.value("-h", "--host");
      String url = call.value("-u", "--uri");
      if (url != null) {
        host = hostOfUrl(url);
      }
      List<String> ops = call.operands(List.of("-h", "-p", "-a", "-n", "-u", "--user", "--pass", "-r", "-i", "-x", "-d",
          "--host", "--port", "--uri", "--scan", "--pattern", "--tls", "--cacert", "--cert", "--key", "-s", "--rdb"));
      String command = ops.isEmpty() ? call.stdin() : String.join(" ", ops);
      statement = redisDestructive(command);
      if (host == null && call.stdin().isEmpty() && ops.isEmpty()) {
        return;
      }
    } else if (MONGO.contains(tool)) {
      host = call.value("--host");
      for (String w : call.words()) {
        if (w.startsWith("mongodb://") || w.startsWith("mongodb+srv://")) {
          host = hostOfUrl(w);
        }
      }
      String eval = call.value("--eval");
      statement = mongoDestructive((eval == null ? "" : eval) + "\n" + call.stdin());
    } else if (DROPPERS.contains(tool)) {
      host = call.value("-h", "--host");
      if (tool.equals("mysqladmin") && !call.words().contains("drop")) {
        return;
      }
      statement = tool.equals("dropuser") ? "drops a database user" : "drops a database";
    } else if (SQL_CLIENTS.contains(tool)) {
      host = switch (tool) {
        case "sqlcmd" -> call.value("-S");
        case "cqlsh" -> call.operands(List.of("-u", "-p", "-k", "-e", "-f", "--cqlversion")).stream().findFirst().orElse(null);
        case "sqlite3", "duckdb", "litecli" -> null;
        default -> call.value("-h", "--host", "--server");
      };
      for (String w : call.words()) {
        String h = hostOfUrl(w);
        if (h != null) {
          host = h;
        } else if (w.startsWith("$") && names(w)) {
          host = w;
        }
      }
      String sql = call.value("-c", "--command", "-e", "--execute", "-Q", "-q", "--query", "--sql");
      StringBuilder all = new StringBuilder(sql == null ? "" : sql).append('\n').append(call.stdin());
      if (tool.equals("sqlite3") || tool.equals("duckdb") || tool.equals("litecli")) {
        List<String> ops = call.operands(List.of("-cmd", "-init", "-separator", "-nullvalue", "-newline"));
        ops.stream().skip(1).forEach(s -> all.append('\n').append(s));
      }
      statement = destructiveStatement(all.toString());
    } else {
      return;
    }
    if (statement == null) {
      return;
    }
    if (host == null || isLocalHost(host)) {
      if (!(tool.equals("sqlite3") || tool.equals("duckdb") || tool.equals("litecli"))) {
        block.flag(Flag.medium("local-data-delete", statement + " in a database on this machine (" + tool + ")"));
      }
      return;
    }
    if (host.startsWith("$")) {
      // a server named by the environment (DATABASE_URL, DB_HOST) is usually a real one, not a scratch database
      block.flag(Flag.high("remote-data-delete", statement + " on a server named by " + host + " (" + tool + ")"));
      return;
    }
    block.flag(Flag.high("remote-data-delete", statement + " on " + host + " (" + tool + ")"));
  }

  /** {@code $DATABASE_URL}, {@code $DB_HOST}, {@code $PG_DSN}: a variable naming a server. */
  private static boolean names(String variable) {
    String v = variable.toUpperCase(Locale.ROOT);
    return v.contains("URL") || v.contains("URI") || v.contains("DSN") || v.contains("HOST") || v.contains("CONN")
        || v.contains("DATABASE");
  }

  /** "DROP TABLE", "TRUNCATE", "DELETE FROM"...: what a SQL text does to stored data, or null if it only reads or adds. */
  public static String destructiveStatement(String sql) {
    if (sql == null || sql.isEmpty()) {
      return null;
    }
    String s = squeeze(sql);
    for (String[] rule : SQL_RULES) {
      if (s.contains(rule[0])) {
        return rule[1];
      }
    }
    int alter = s.indexOf("alter table ");
    if (alter >= 0 && s.indexOf(" drop ", alter) > 0) {
      return "ALTER TABLE ... DROP";
    }
    int update = s.indexOf("update ");
    if (update >= 0 && s.indexOf(" set ", update) > 0 && s.indexOf(" where ", update) < 0) {
      return "UPDATE without WHERE";
    }
    return null;
  }

  private static final String[][] SQL_RULES = {
      {"drop table", "DROP TABLE"}, {"drop database", "DROP DATABASE"}, {"drop schema", "DROP SCHEMA"},
      {"drop user", "DROP USER"}, {"drop role", "DROP ROLE"}, {"drop view", "DROP VIEW"}, {"drop index", "DROP INDEX"},
      {"drop keyspace", "DROP KEYSPACE"}, {"drop collection", "DROP COLLECTION"}, {"truncate ", "TRUNCATE"},
      {"delete from ", "DELETE FROM"}, {"delete * from", "DELETE FROM"}, {"drop owned", "DROP OWNED"}};

  /** Lower case, runs of whitespace as one space, so "DROP\n  TABLE" reads "drop table". */
  private static String squeeze(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    boolean space = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        space = true;
      } else {
        if (space) {
          sb.append(' ');
        }
        space = false;
        sb.append(Character.toLowerCase(c));
      }
    }
    return sb.append(' ').toString();
  }

  /** FLUSHALL, FLUSHDB, DEL...: a redis command line that deletes keys, or null. */
  public static String redisDestructive(String command) {
    for (String line : command.split("\n")) {
      String t = line.strip();
      int sp = t.indexOf(' ');
      String verb = (sp < 0 ? t : t.substring(0, sp)).toLowerCase(Locale.ROOT);
      if (REDIS_DESTRUCTIVE.contains(verb)) {
        if (verb.equals("config") && !t.toLowerCase(Locale.ROOT).contains("set")) {
          continue;
        }
        if ((verb.equals("script") || verb.equals("function")) && !t.toLowerCase(Locale.ROOT).contains("flush")) {
          continue;
        }
        return verb.toUpperCase(Locale.ROOT);
      }
    }
    return null;
  }

  /** deleteMany, drop, dropDatabase...: a mongo shell script that deletes documents, or null. */
  public static String mongoDestructive(String script) {
    String s = script.toLowerCase(Locale.ROOT);
    for (String m : MONGO_DESTRUCTIVE) {
      if (s.contains(m)) {
        return m.replace(".", "").replace("(", "");
      }
    }
    return null;
  }

  /** The host of {@code postgres://u:p@host:5432/db}, {@code redis://host}, {@code mongodb+srv://...}; null if no URL. */
  public static String hostOfUrl(String url) {
    int scheme = url.indexOf("://");
    if (scheme <= 0) {
      return null;
    }
    String name = url.substring(0, scheme).toLowerCase(Locale.ROOT);
    if (!(name.startsWith("postgres") || name.startsWith("mysql") || name.startsWith("mariadb") || name.startsWith("redis")
        || name.startsWith("rediss") || name.startsWith("mongodb") || name.startsWith("jdbc") || name.startsWith("mssql")
        || name.startsWith("sqlserver") || name.startsWith("clickhouse") || name.startsWith("amqp") || name.startsWith("cockroach")
        || name.startsWith("elasticsearch") || name.startsWith("http") || name.startsWith("cassandra"))) {
      return null;
    }
    String rest = url.substring(scheme + 3);
    int at = rest.lastIndexOf('@', rest.indexOf('/') < 0 ? rest.length() - 1 : rest.indexOf('/'));
    if (at >= 0) {
      rest = rest.substring(at + 1);
    }
    int end = 0;
    while (end < rest.length() && "/:?,".indexOf(rest.charAt(end)) < 0) {
      end++;
    }
    return end == 0 ? "localhost" : rest.substring(0, end);
  }

  /** localhost, 127.x, ::1, a unix socket path, or a container name on this machine's network. */
  public static boolean isLocalHost(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    return h.isEmpty() || h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]")
        || h.equals("0.0.0.0") || h.startsWith("/") || h.equals("host.docker.internal") || h.endsWith(".localhost")
        || h.equals(":memory:");
  }
}
