package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import java.util.HashMap;
import java.util.Map;

/**
 * What the library calls of JavaScript, Ruby and R do, as actions the danger analysis knows: run a shell command,
 * delete, write, read, re-permission or move a path, change folder, evaluate code, talk to the network, signal a
 * process, connect to a remote data system. Each entry also says which argument holds the path or command.
 */
final class ScriptApis {

  /** The kinds of action a call performs. */
  enum Kind {
    /** A shell command line in one string. */
    SHELL,
    /** A program and its arguments, as separate strings or a list; one string alone is a shell line. */
    ARGV,
    /** R's system2(command, args): joined with spaces into a shell line. */
    SYSTEM2,
    DELETE, DELETE_RECURSIVE,
    /** Recursive when the options say so ({@code {recursive: true}}, {@code recursive = TRUE}). */
    DELETE_OPTION,
    WRITE, APPEND,
    /** File.open(path, mode) and the like: write, append or read by the mode. */
    OPEN,
    COPY, MOVE, READ,
    /** Change permissions: {@code pathArg} holds the path(s), {@code modeArg} the mode. */
    CHMOD,
    CHOWN, CHDIR, MKDIR,
    /** Evaluates code in the block's own language. */
    EVAL,
    /** R's source(): a local file runs as R, a URL runs code from the network. */
    SOURCE,
    /** Always runs code from the network (devtools::source_url). */
    SOURCE_REMOTE,
    NETWORK, SOCKET, DNS,
    /** Sends a signal to the pid in {@code pathArg}. */
    KILL,
    /** Starts a process and returns its pid or handle: signals to it are the block's own business. */
    SPAWN,
    /** Connects to a database, cache, bucket or forge; remote when its host is. */
    REMOTE_CLIENT,
    /** A client of a service that is always elsewhere (GitHub, S3). */
    CLOUD_CLIENT,
    INSTALL_R, REMOVE_R, INSTALL_REMOTE_R,
    /** Lists processes (psutil-like packages): pids found this way belong to others. */
    PROCESS_LIST,
    /** Loads and runs a file of code: {@code require(path)}, {@code import(path)}, Ruby's {@code load}. */
    LOAD,
    /** Makes a link: {@code pathArg} is what it points to, {@code second} the link. */
    LINK,
    /** Deserializes data in a way that can run code it holds (Marshal.load): from the network, it runs that code. */
    DESERIALIZE,
    /** Unpacks an archive into the folder in {@code pathArg} / {@code keyword}. */
    EXTRACT
  }

  /**
   * One call's meaning.
   *
   * @param kind     what it does
   * @param pathArg  the position of the path, command or pid argument (-1: none)
   * @param keyword  the keyword naming that argument when passed by name, or null
   * @param second   the position of a second path (destination, mode), or -1
   */
  record Api(Kind kind, int pathArg, String keyword, int second) {}

  private static final Map<String, Api> JS = new HashMap<>();
  private static final Map<String, Api> RUBY = new HashMap<>();
  private static final Map<String, Api> R = new HashMap<>();

  private ScriptApis() {}

  static Api lookup(Dialect d, String name) {
    return switch (d) {
      case JAVASCRIPT -> JS.get(name);
      case RUBY -> RUBY.get(name);
      case R -> R.get(name);
    };
  }

  private static void put(Map<String, Api> map, Kind kind, int arg, String keyword, int second, String... names) {
    for (String n : names) {
      map.put(n, new Api(kind, arg, keyword, second));
    }
  }

  private static void put(Map<String, Api> map, Kind kind, int arg, String... names) {
    put(map, kind, arg, null, -1, names);
  }

  static {
    // ---------------------------------------------------------------- JavaScript (node)
    put(JS, Kind.SHELL, 0, "child_process.exec", "child_process.execSync", "shelljs.exec", "execa.command",
        "execa.commandSync", "zx.$");
    put(JS, Kind.ARGV, 0, "child_process.spawn", "child_process.spawnSync", "child_process.execFile",
        "child_process.execFileSync", "execa", "execa.execa", "execa.execaSync", "execa.sync", "cross-spawn");
    put(JS, Kind.DELETE_OPTION, 0, "fs.rmSync", "fs.rm", "fs.rmdirSync", "fs.rmdir");
    put(JS, Kind.DELETE, 0, "fs.unlinkSync", "fs.unlink");
    put(JS, Kind.ARGV, 0, "Bun.spawn", "Bun.spawnSync", "Deno.run", "Deno.Command");
    put(JS, Kind.DELETE_OPTION, 0, "Deno.remove", "Deno.removeSync");
    put(JS, Kind.OPEN, 0, null, -1, "Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFile", "Bun.write");
    put(JS, Kind.DELETE_RECURSIVE, 0, "fs-extra.remove", "fs-extra.removeSync", "fs-extra.emptyDir",
        "fs-extra.emptyDirSync", "rimraf", "rimraf.sync", "rimraf.rimraf", "rimraf.rimrafSync", "del", "del.deleteSync",
        "del.deleteAsync", "deleteSync", "deleteAsync", "shelljs.rm");
    put(JS, Kind.OPEN, 0, null, 1, "fs.writeFileSync", "fs.writeFile", "fs.createWriteStream", "fs-extra.outputFile",
        "fs-extra.outputFileSync", "fs-extra.writeJson", "fs-extra.writeJsonSync", "fs-extra.outputJson",
        "fs-extra.outputJsonSync", "fs.openSync", "fs.open");
    put(JS, Kind.APPEND, 0, "fs.appendFileSync", "fs.appendFile");
    put(JS, Kind.COPY, 0, null, 1, "fs.copyFileSync", "fs.copyFile", "fs.cpSync", "fs.cp", "fs-extra.copy",
        "fs-extra.copySync");
    put(JS, Kind.MOVE, 0, null, 1, "fs.renameSync", "fs.rename", "fs-extra.move", "fs-extra.moveSync");
    put(JS, Kind.LINK, 0, null, 1, "fs.symlinkSync", "fs.symlink", "fs.linkSync", "fs.link", "fs-extra.ensureSymlink",
        "fs-extra.ensureSymlinkSync");
    put(JS, Kind.LOAD, 0, "require", "module.require", "import", "createRequire");
    put(JS, Kind.EXTRACT, 1, "dir", -1, "extract-zip", "decompress");
    put(JS, Kind.EXTRACT, -1, "cwd", -1, "tar.x", "tar.extract");
    put(JS, Kind.DESERIALIZE, 0, "node-serialize.unserialize", "serialize-to-js.deserialize", "funcster.deepDeserialize");
    put(JS, Kind.CHMOD, 0, null, 1, "fs.chmodSync", "fs.chmod", "fs.lchmodSync", "fs.lchmod");
    put(JS, Kind.CHOWN, 0, "fs.chownSync", "fs.chown", "fs.lchownSync");
    put(JS, Kind.READ, 0, "fs.readFileSync", "fs.readFile", "fs.createReadStream", "fs-extra.readJson",
        "fs-extra.readJsonSync");
    put(JS, Kind.MKDIR, 0, "fs.mkdirSync", "fs.mkdir", "fs-extra.ensureDir", "fs-extra.ensureDirSync",
        "fs-extra.mkdirp", "fs-extra.mkdirs", "mkdirp");
    put(JS, Kind.CHDIR, 0, "process.chdir");
    put(JS, Kind.EVAL, 0, "eval", "vm.runInThisContext", "vm.runInNewContext", "vm.runInContext", "vm.Script",
        "vm.compileFunction", "Function", "globalThis.eval", "window.eval");
    put(JS, Kind.NETWORK, 0, "fetch", "axios", "axios.get", "axios.post", "axios.put", "axios.patch", "axios.delete",
        "axios.request", "http.get", "http.request", "https.get", "https.request", "got", "got.get", "got.post",
        "node-fetch", "request", "request.get", "request.post", "superagent.get", "superagent.post", "ky", "ky.get",
        "ky.post", "undici.request", "undici.fetch", "needle", "needle.post", "WebSocket", "ws", "XMLHttpRequest",
        "nodemailer.createTransport");
    put(JS, Kind.SOCKET, 0, "net.connect", "net.createConnection", "net.Socket", "tls.connect", "dgram.createSocket");
    put(JS, Kind.DNS, 0, "dns.lookup", "dns.resolve", "dns.resolve4", "dns.resolve6", "dns.resolveTxt", "dns.resolveAny",
        "dns.resolveCname", "dns.resolveMx", "dns.promises.lookup", "dns.promises.resolve", "dns.Resolver");
    put(JS, Kind.KILL, 0, "process.kill");
    put(JS, Kind.PROCESS_LIST, 0, "ps-list", "find-process", "ps-node.lookup", "psList");
    put(JS, Kind.CLOUD_CLIENT, 0, "@octokit/rest.Octokit", "octokit.Octokit", "@octokit/core.Octokit", "Octokit",
        "aws-sdk.S3", "aws-sdk.DynamoDB", "aws-sdk.EC2", "@google-cloud/storage.Storage", "stripe");
    put(JS, Kind.REMOTE_CLIENT, 0, "redis.createClient", "ioredis", "ioredis.Redis", "pg.Client", "pg.Pool",
        "mysql.createConnection", "mysql.createPool", "mysql2.createConnection", "mysql2.createPool",
        "mysql2/promise.createConnection", "mongodb.MongoClient", "mongodb.MongoClient.connect", "mongoose.connect",
        "knex", "sequelize.Sequelize", "@prisma/client.PrismaClient", "postgres", "@elastic/elasticsearch.Client",
        "cassandra-driver.Client");

    // ---------------------------------------------------------------- Ruby
    put(RUBY, Kind.ARGV, 0, "system", "exec", "Kernel.system", "Kernel.exec", "IO.popen", "Open3.capture2",
        "Open3.capture2e", "Open3.capture3", "Open3.popen3", "Open3.popen2", "Open3.popen2e", "PTY.spawn");
    put(RUBY, Kind.SPAWN, 0, "spawn", "Process.spawn", "Kernel.spawn");
    put(RUBY, Kind.DELETE_RECURSIVE, 0, "FileUtils.rm_rf", "FileUtils.rm_r", "FileUtils.remove_dir",
        "FileUtils.remove_entry", "FileUtils.remove_entry_secure", "FileUtils.rmtree", "FileUtils.remove_dir");
    put(RUBY, Kind.DELETE, 0, "FileUtils.rm", "FileUtils.rm_f", "FileUtils.remove", "FileUtils.remove_file",
        "File.delete", "File.unlink", "FileUtils.rmdir", "Dir.rmdir", "Dir.delete", "Dir.unlink");
    put(RUBY, Kind.OPEN, 0, null, 1, "File.open", "File.new", "IO.open", "Kernel.open");
    put(RUBY, Kind.WRITE, 0, "File.write", "IO.write", "File.binwrite", "IO.binwrite");
    put(RUBY, Kind.COPY, 0, null, 1, "FileUtils.cp", "FileUtils.cp_r", "FileUtils.copy", "FileUtils.install",
        "FileUtils.copy_file", "FileUtils.copy_entry", "IO.copy_stream");
    put(RUBY, Kind.MOVE, 0, null, 1, "FileUtils.mv", "FileUtils.move", "File.rename");
    put(RUBY, Kind.LINK, 0, null, 1, "FileUtils.ln_s", "FileUtils.ln_sf", "FileUtils.symlink", "File.symlink", "FileUtils.ln",
        "File.link");
    put(RUBY, Kind.LOAD, 0, "require", "load", "require_relative", "Kernel.load", "Kernel.require");
    put(RUBY, Kind.EXTRACT, 1, "Minitar.unpack", "Archive::Tar::Minitar.unpack");
    put(RUBY, Kind.DESERIALIZE, 0, "Marshal.load", "Marshal.restore", "YAML.unsafe_load", "Psych.unsafe_load",
        "YAML.unsafe_load_file", "Oj.object_load");
    put(RUBY, Kind.CHMOD, 1, null, 0, "File.chmod", "FileUtils.chmod", "FileUtils.chmod_R", "File.lchmod");
    put(RUBY, Kind.CHOWN, 2, "File.chown", "FileUtils.chown", "FileUtils.chown_R");
    put(RUBY, Kind.READ, 0, "File.read", "File.readlines", "IO.read", "IO.readlines", "File.foreach", "File.binread",
        "IO.foreach");
    put(RUBY, Kind.CHDIR, 0, "Dir.chdir", "FileUtils.cd", "FileUtils.chdir");
    put(RUBY, Kind.MKDIR, 0, "FileUtils.mkdir_p", "FileUtils.mkdir", "FileUtils.makedirs", "FileUtils.mkpath",
        "Dir.mkdir");
    put(RUBY, Kind.EVAL, 0, "eval", "Kernel.eval", "instance_eval", "class_eval", "module_eval", "instance_exec",
        "binding.eval", "TOPLEVEL_BINDING.eval", "RubyVM::InstructionSequence.compile");
    put(RUBY, Kind.NETWORK, 0, "Net::HTTP.get", "Net::HTTP.get_response", "Net::HTTP.post", "Net::HTTP.post_form",
        "Net::HTTP.start", "Net::HTTP.new", "Net::HTTP::Post.new", "Net::HTTP::Get.new", "URI.open", "HTTParty.get",
        "HTTParty.post", "HTTParty.put", "HTTParty.delete", "Faraday.get", "Faraday.post", "Faraday.new",
        "RestClient.get", "RestClient.post", "RestClient.put", "Excon.get", "Excon.post", "HTTP.get", "HTTP.post",
        "Net::SMTP.start", "Net::FTP.new", "Net::FTP.open", "OpenURI.open_uri", "Net::HTTP::Delete.new",
        "RestClient.delete", "Faraday.delete", "HTTP.delete");
    put(RUBY, Kind.SOCKET, 0, "TCPSocket.new", "TCPSocket.open", "UDPSocket.new", "Socket.tcp", "Socket.new",
        "SSLSocket.new", "OpenSSL::SSL::SSLSocket.new");
    put(RUBY, Kind.DNS, 0, "Resolv.getaddress", "Resolv.getaddresses", "Resolv::DNS.new", "Addrinfo.getaddrinfo",
        "Socket.getaddrinfo", "Addrinfo.tcp", "Socket.gethostbyname", "IPSocket.getaddress");
    put(RUBY, Kind.KILL, 1, "Process.kill");
    put(RUBY, Kind.CLOUD_CLIENT, 0, "Octokit::Client.new", "Octokit.client", "Aws::S3::Client.new", "Aws::S3::Resource.new",
        "Aws::DynamoDB::Client.new", "Aws::EC2::Client.new", "Google::Cloud::Storage.new", "Gitlab.client");
    put(RUBY, Kind.REMOTE_CLIENT, 0, "Redis.new", "PG.connect", "PG::Connection.new", "PG::Connection.open",
        "Mysql2::Client.new", "Mongo::Client.new", "Sequel.connect", "ActiveRecord::Base.establish_connection",
        "Elasticsearch::Client.new");

    // ---------------------------------------------------------------- R
    put(R, Kind.SHELL, 0, "system", "shell", "base.system", "sys.exec_wait", "sys.exec_internal", "callr.rcmd");
    put(R, Kind.SYSTEM2, 0, "system2", "processx.run", "processx.process.new", "sys.exec_background");
    put(R, Kind.DELETE_OPTION, 0, "unlink", "base.unlink");
    put(R, Kind.DELETE, 0, "file.remove", "fs.file_delete", "base.file.remove");
    put(R, Kind.DELETE_RECURSIVE, 0, "fs.dir_delete");
    put(R, Kind.WRITE, 1, "con", -1, "writeLines", "writeChar", "writeBin");
    put(R, Kind.WRITE, -1, "file", -1, "cat");
    put(R, Kind.WRITE, -1, "file", -1, "save", "save.image");
    put(R, Kind.OPEN, 0, "description", 1, "file", "gzfile", "bzfile");
    put(R, Kind.WRITE, 1, "file", -1, "write", "write.csv", "write.csv2", "write.table", "saveRDS",
        "readr.write_csv", "readr.write_lines", "readr.write_file", "data.table.fwrite", "jsonlite.write_json",
        "yaml.write_yaml", "writexl.write_xlsx", "utils.write.csv");
    put(R, Kind.WRITE, 0, "description", -1, "sink", "file.create", "fs.file_create");
    put(R, Kind.LINK, 0, "from", 1, "file.symlink", "file.link", "fs.link_create");
    put(R, Kind.EXTRACT, -1, "exdir", -1, "unzip", "untar", "utils.unzip", "utils.untar", "archive.archive_extract");
    put(R, Kind.COPY, 0, "from", 1, "file.copy", "fs.file_copy", "fs.dir_copy");
    put(R, Kind.MOVE, 0, "from", 1, "file.rename", "fs.file_move");
    put(R, Kind.APPEND, 0, "file1", -1, "file.append");
    put(R, Kind.CHMOD, 0, "paths", 1, "Sys.chmod", "fs.file_chmod");
    put(R, Kind.READ, 0, "con", -1, "readLines", "readRDS", "read.csv", "read.csv2", "read.table", "read.delim",
        "scan", "readChar", "readBin", "readr.read_csv", "readr.read_lines", "readr.read_file",
        "data.table.fread", "jsonlite.fromJSON", "jsonlite.read_json", "yaml.read_yaml", "read.dcf", "readRenviron");
    put(R, Kind.CHDIR, 0, "setwd");
    put(R, Kind.MKDIR, 0, "dir.create", "fs.dir_create");
    put(R, Kind.EVAL, 0, "eval", "evalq", "base.eval");
    put(R, Kind.SOURCE, 0, "source", "sys.source", "base.source");
    put(R, Kind.SOURCE_REMOTE, 0, "devtools.source_url", "devtools.source_gist", "source_url", "source_gist",
        "remotes.source_url");
    put(R, Kind.NETWORK, 0, "GET", "POST", "PUT", "PATCH", "DELETE", "VERB", "HEAD", "httr.GET", "httr.POST",
        "httr.PUT", "httr.PATCH", "httr.DELETE", "httr.VERB", "httr2.request", "httr2.req_perform", "request",
        "req_perform", "curl.curl_fetch_memory", "curl.curl_download", "curl.curl", "curl_fetch_memory",
        "curl_download", "RCurl.getURL", "RCurl.postForm", "RCurl.httpPOST", "getURL", "postForm", "url",
        "download.file", "utils.download.file", "jsonlite.fromJSON", "fromJSON");
    put(R, Kind.SOCKET, 0, "socketConnection", "make.socket", "base.socketConnection");
    put(R, Kind.DNS, 0, "nsl", "utils.nsl", "curl.nslookup", "nslookup");
    put(R, Kind.KILL, 0, "tools.pskill", "pskill", "ps.ps_kill", "ps.ps_terminate", "ps.ps_signal");
    put(R, Kind.INSTALL_R, 0, "lib", -1, "install.packages", "utils.install.packages", "BiocManager.install");
    put(R, Kind.REMOVE_R, 0, "lib", -1, "remove.packages", "utils.remove.packages");
    put(R, Kind.INSTALL_REMOTE_R, 0, "devtools.install_github", "remotes.install_github", "install_github",
        "remotes.install_url", "devtools.install_url", "remotes.install_gitlab", "pak.pkg_install");
    put(R, Kind.REMOTE_CLIENT, 0, "DBI.dbConnect", "dbConnect", "mongolite.mongo", "mongo", "redux.hiredis", "hiredis",
        "RPostgres.dbConnect", "RMySQL.dbConnect", "pool.dbPool", "dbPool");
    put(R, Kind.CLOUD_CLIENT, 0, "paws.s3", "aws.s3.delete_object", "aws.s3.delete_bucket", "gh.gh",
        "googleCloudStorageR.gcs_delete_object");
    put(R, Kind.PROCESS_LIST, 0, "ps.ps", "ps.ps_find", "ps");
  }
}
