package io.interpreter4j.core.safety.python;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What python's library calls do, by their full name: the tables the python call rules read. */
final class PythonApis {

  static final Set<String> SHELL_STRING = Set.of(
      "os.system", "os.popen", "os.popen2", "os.popen3", "subprocess.getoutput", "subprocess.getstatusoutput",
      "commands.getoutput", "commands.getstatusoutput", "asyncio.create_subprocess_shell", "pty.spawn");
  static final Set<String> SHELL_ARGV_OR_STRING = Set.of(
      "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
      "sh.run");
  static final Set<String> SHELL_VARARGS = Set.of(
      "asyncio.create_subprocess_exec", "os.execl", "os.execlp", "os.execle", "os.execlpe");
  static final Set<String> SHELL_ARGV_SECOND = Set.of("os.execv", "os.execve", "os.execvp", "os.execvpe");
  static final Set<String> OPEN = Set.of("open", "io.open", "codecs.open", "builtins.open");
  static final Set<String> COPY = Set.of(
      "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "distutils.dir_util.copy_tree");
  static final Set<String> MOVE = Set.of("shutil.move", "os.rename", "os.replace", "os.renames");
  static final Set<String> REMOVE = Set.of("os.remove", "os.unlink", "os.removedirs");
  static final Set<String> RECURSIVE_REMOVE = Set.of("shutil.rmtree", "distutils.dir_util.remove_tree");
  static final Set<String> PERMISSIONS = Set.of("os.chmod", "os.chown", "os.lchown", "shutil.chown");
  static final Set<String> EXEC = Set.of("exec", "eval", "builtins.exec", "builtins.eval");
  static final List<String> NETWORK_PREFIXES = List.of(
      "requests.", "httpx.", "urllib.request.", "urllib3.", "http.client.", "socket.", "aiohttp.", "smtplib.",
      "ftplib.", "paramiko.", "websocket.", "websockets.", "pycurl.", "telnetlib.", "asyncssh.", "boto3.", "xmlrpc.client.");
  static final Set<String> WELL_KNOWN_MODULES = Set.of(
      "os", "shutil", "subprocess", "sys", "pathlib", "io", "codecs", "tempfile", "glob", "json", "requests", "socket",
      "urllib", "http", "asyncio", "pty", "distutils", "builtins");
  static final Set<String> ITERATION_METHODS = Set.of("items", "values", "keys");
  /** Reading the whole environment through a method of os.environ. */
  static final Set<String> ENVIRONMENT_DUMPS = Set.of(
      "os.environ.items", "os.environ.values", "os.environ.__repr__", "os.environ.__str__");
  /** Connections to databases and caches: remote when their host is. */
  static final Set<String> DATA_CLIENTS = Set.of(
      "psycopg2.connect", "psycopg.connect", "pymysql.connect", "mysql.connector.connect", "MySQLdb.connect",
      "pymssql.connect", "cx_Oracle.connect", "oracledb.connect", "redis.Redis", "redis.StrictRedis", "redis.from_url",
      "redis.Redis.from_url", "pymongo.MongoClient", "motor.motor_asyncio.AsyncIOMotorClient", "sqlalchemy.create_engine",
      "clickhouse_driver.Client", "clickhouse_connect.get_client", "cassandra.cluster.Cluster",
      "elasticsearch.Elasticsearch", "asyncpg.connect", "asyncpg.create_pool", "aiomysql.connect", "pika.BlockingConnection",
      "psycopg2.pool.SimpleConnectionPool", "snowflake.connector.connect");
  /** Clients of services that are always on another machine. */
  static final List<String> CLOUD_CLIENTS = List.of(
      "boto3.client", "boto3.resource", "boto3.Session", "boto3.session.Session", "github.Github", "gitlab.Gitlab",
      "google.cloud.", "azure.", "kubernetes.client.", "hvac.Client", "stripe.", "digitalocean.", "openstack.connect",
      "huggingface_hub.HfApi", "dropbox.Dropbox", "pygithub.Github");
  static final List<String> DESTRUCTIVE_METHODS = List.of(
      "delete", "drop", "flush", "truncate", "purge", "terminate", "remove", "destroy", "empty", "wipe");
  static final Set<String> RESOLVERS = Set.of(
      "socket.gethostbyname", "socket.gethostbyname_ex", "socket.getaddrinfo", "dns.resolver.resolve",
      "dns.resolver.query", "dns.resolver.Resolver", "socket.gethostbyaddr");
  static final Set<String> HTTP_DELETES = Set.of(
      "requests.delete", "httpx.delete", "requests.request", "httpx.request", "requests.Session.delete");
  static final Set<String> DOWNLOADS = Set.of(
      "urllib.request.urlretrieve", "wget.download", "urllib.urlretrieve");
  /**
   * Loaders whose input can hold code that runs while it loads (pickle's reduce, marshal'd code objects, unsafe YAML
   * tags): fed from the network, they run downloaded code like exec.
   */
  static final Set<String> DESERIALIZERS = Set.of(
      "pickle.loads", "pickle.load", "cPickle.loads", "cPickle.load", "_pickle.loads", "_pickle.load", "dill.loads",
      "dill.load", "cloudpickle.loads", "cloudpickle.load", "joblib.load", "marshal.loads", "marshal.load",
      "yaml.load", "yaml.unsafe_load", "yaml.load_all", "yaml.unsafe_load_all", "jsonpickle.decode", "torch.load",
      "numpy.load", "pandas.read_pickle", "shelve.open", "pickle.Unpickler", "dill.Unpickler");
  /** Ways to run a python file: a downloaded one runs downloaded code. */
  static final Set<String> RUN_FILE = Set.of(
      "runpy.run_path", "importlib.util.spec_from_file_location", "importlib.machinery.SourceFileLoader",
      "imp.load_source");
  static final Set<String> LINKS = Set.of("os.symlink", "os.link");
  static final Set<String> UNPACKS = Set.of("shutil.unpack_archive", "patoolib.extract_archive");
  static final Set<String> PROCESS_LISTS = Set.of(
      "psutil.process_iter", "psutil.pids", "psutil.Process", "psutil.net_connections");

  /** Whether {@code name} (a star-imported module's function) is a shell-out, a deletion, a move or a copy. */
  static boolean isStarImportedCall(String name) {
    return SHELL_STRING.contains(name) || SHELL_ARGV_OR_STRING.contains(name) || REMOVE.contains(name)
        || RECURSIVE_REMOVE.contains(name) || MOVE.contains(name) || COPY.contains(name);
  }

  private static final Set<String> JUDGED_CALLS = judgedCalls();

  private static Set<String> judgedCalls() {
    Set<String> all = new HashSet<>();
    for (Set<String> s : List.of(SHELL_STRING, SHELL_ARGV_OR_STRING, SHELL_ARGV_SECOND, SHELL_VARARGS, OPEN, COPY, MOVE,
        REMOVE, RECURSIVE_REMOVE, PERMISSIONS, EXEC)) {
      all.addAll(s);
    }
    all.addAll(List.of("os.kill", "os.killpg", "os.chdir", "os.makedirs", "os.mkdir", "os.getenv", "os.environ.get",
        "os.environ.setdefault"));
    all.addAll(RESOLVERS);
    all.addAll(HTTP_DELETES);
    all.addAll(DOWNLOADS);
    all.addAll(DESERIALIZERS);
    all.addAll(RUN_FILE);
    all.addAll(LINKS);
    all.addAll(UNPACKS);
    all.add("shutil.copyfileobj");
    return Set.copyOf(all);
  }

  /** One lookup decides whether a call is one of those the call rules judges; most calls are not. */
  static boolean isJudgedCall(String name) {
    return JUDGED_CALLS.contains(name);
  }

  /** requests.post, socket.create_connection, urllib.request.urlopen, or the bare module name. */
  static boolean isNetwork(String name) {
    for (String prefix : NETWORK_PREFIXES) {
      if (name.startsWith(prefix)
          || (name.length() == prefix.length() - 1 && prefix.startsWith(name))) {
        return true;
      }
    }
    return name.endsWith("urlopen");
  }

  /** The origins a receiver can come from: what the rooted-in look-up asks about. */
  enum Origin { CLIENT, PROCESS_LIST, REMOTE_SHELL }

  static boolean isOrigin(String name, Origin origin) {
    return switch (origin) {
      case CLIENT -> isCloudClient(name) || DATA_CLIENTS.contains(name);
      case PROCESS_LIST -> PROCESS_LISTS.contains(name);
      case REMOTE_SHELL -> name.startsWith("paramiko.") || name.startsWith("fabric.") || name.startsWith("asyncssh.")
          || name.startsWith("invoke.");
    };
  }

  static boolean isCloudClient(String name) {
    for (String c : CLOUD_CLIENTS) {
      if (c.endsWith(".") ? name.startsWith(c) : name.equals(c)) {
        return true;
      }
    }
    return false;
  }


  private PythonApis() {}
}
