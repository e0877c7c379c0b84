package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Remote systems changed through HTTP APIs and SDKs, judged on the text of a block in any language:
 * <ul>
 *   <li>{@code remote-api-delete}: an HTTP DELETE in a block that talks to a hosted service's API (a forge such as
 *   api.github.com or GitLab, a cloud or hosting provider), by any client: requests/httpx.delete, httr's DELETE,
 *   fetch/axios with method DELETE, Net::HTTP::Delete;
 *   <li>{@code cloud-sdk-delete}: a cloud SDK command that terminates or deletes (AWS SDK v3's
 *   {@code new TerminateInstancesCommand(...)}, v2's {@code ec2.terminateInstances(...)});
 *   <li>{@code remote-data-delete}: a destructive SQL statement in a block that points the database clients at
 *   another machine through the environment ({@code PGHOST=db.prod...}, {@code MYSQL_HOST}).
 * </ul>
 * Pure and stateless.
 */
public final class RemoteApis {

  private static final Pattern SERVICE_API = Pattern.compile(
      "\\bapi\\.github\\.com\\b|\\bgitlab\\.com/api\\b|/api/v4/projects\\b|\\bapi\\.bitbucket\\.org\\b|\\bapi\\.cloudflare\\.com\\b"
          + "|\\bapi\\.digitalocean\\.com\\b|\\bapi\\.heroku\\.com\\b|\\bapi\\.vercel\\.com\\b|\\bapi\\.netlify\\.com\\b"
          + "|\\bapi\\.linode\\.com\\b|\\bapi\\.hetzner\\.cloud\\b|\\bslack\\.com/api\\b|\\bapi\\.stripe\\.com\\b"
          + "|\\bhuggingface\\.co/api\\b|\\bapi\\.fly\\.io\\b|\\bapi\\.render\\.com\\b|\\bgitea\\.\\w+|/repos/[\\w.-]+/[\\w.-]+");
  private static final Pattern HTTP_DELETE = Pattern.compile(
      "\\b(?:requests|httpx|session|sess|s|client|http|gh)\\.delete\\s*\\(|(?<![\\w.])DELETE\\s*\\(|\\bVERB\\s*\\(\\s*['\"]DELETE"
          + "|\\bmethod\\s*[:=]\\s*['\"]DELETE['\"]|\\brequest\\s*\\(\\s*['\"]DELETE['\"]|\\baxios\\.delete\\s*\\("
          + "|\\bNet::HTTP::Delete\\b|\\bHTTParty\\.delete\\b|\\bFaraday\\.delete\\b|-X\\s*DELETE\\b|--request\\s+DELETE\\b"
          + "|\\.delete\\s*\\(\\s*f?['\"`]https?://", Pattern.CASE_INSENSITIVE);
  private static final Pattern SDK_COMMAND = Pattern.compile(
      "\\bnew\\s+((?:Terminate|Delete|Purge|Destroy|Remove|Deregister)\\w*Command)\\s*\\(");
  private static final Pattern SDK_V2_CALL = Pattern.compile(
      "\\.((?:terminate|delete|purge|destroy|deregister)(?:Instances|Bucket|Objects|DBInstance|DBCluster|Table|Function"
          + "|Stack|Cluster|Repository|Secret|Volume|Snapshot|Queue|Topic|User|Role)\\w*)\\s*\\(");
  private static final Pattern ENV_HOST = Pattern.compile(
      "\\b(PGHOST|MYSQL_HOST|MYSQL_PWD_HOST|MONGO_HOST|REDIS_HOST|DB_HOST|DATABASE_HOST)['\"]?\\s*\\]?\\s*(?:=|<-)\\s*['\"]?([\\w.-]+)");
  private static final Pattern DESTRUCTIVE_SQL = Pattern.compile(
      "\\b(?:DROP\\s+(?:SCHEMA|DATABASE|TABLE|OWNED)|TRUNCATE(?:\\s+TABLE)?\\s+\\w|DELETE\\s+FROM\\s+\\w+\\s*(?:;|['\"]|$))",
      Pattern.CASE_INSENSITIVE | Pattern.MULTILINE);

  private RemoteApis() {}

  /** The flags of a block's text; empty when it changes no remote system these ways. */
  public static List<Flag> judge(String code) {
    List<Flag> out = new ArrayList<>();
    Matcher api = SERVICE_API.matcher(code);
    Matcher del = HTTP_DELETE.matcher(code);
    if (api.find() && del.find() && !dryRunOnly(code)) {
      out.add(Flag.high("remote-api-delete", "deletes through a hosted service's API (" + del.group().strip()
          + " with " + api.group() + ")"));
    }
    boolean sdk = code.contains("@aws-sdk/") || code.contains("aws-sdk") || code.contains("@google-cloud/")
        || code.contains("@azure/");
    if (sdk && !dryRunOnly(code)) {
      Matcher c = SDK_COMMAND.matcher(code);
      Matcher v2 = SDK_V2_CALL.matcher(code);
      if (c.find()) {
        out.add(Flag.high("cloud-sdk-delete", "deletes or terminates cloud resources (" + c.group(1) + ")"));
      } else if (v2.find()) {
        out.add(Flag.high("cloud-sdk-delete", "deletes or terminates cloud resources (" + v2.group(1) + ")"));
      }
    }
    Matcher env = ENV_HOST.matcher(code);
    while (env.find()) {
      String host = env.group(2);
      if (!Hosts.isLocal(host) && !host.startsWith("$") && !host.toLowerCase(Locale.ROOT).equals("db")) {
        Matcher sql = DESTRUCTIVE_SQL.matcher(code);
        if (sql.find()) {
          out.add(Flag.high("remote-data-delete", sql.group().strip() + " on " + host + " (named by " + env.group(1)
              + ")"));
        }
        break;
      }
    }
    return out;
  }

  /** A dry run asked for in the block: DryRun: true, dry_run="All", --dry-run. */
  private static boolean dryRunOnly(String code) {
    return Pattern.compile("\\bDryRun\\s*:\\s*true\\b|\\bdry_?run\\s*[=:]\\s*(?:['\"]All['\"]|True|true)|--dry-run\\b")
        .matcher(code).find();
  }
}
