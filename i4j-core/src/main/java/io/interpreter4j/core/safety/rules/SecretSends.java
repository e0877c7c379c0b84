package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Secret files leaving by a way the language analyzers do not follow, judged on the text of a block in any language:
 * a secret file named (a private key, cloud or registry credentials, a GnuPG or pass store, .netrc, .pgpass, however
 * the path is split into parts) and a way out that carries files: a raw socket or nc, mail (SMTP clients, mail
 * attachments), a multipart upload helper (httr's upload_file, curl's form_file). Sending to this machine only is let
 * through. Pure and stateless.
 */
public final class SecretSends {

  /** A secret file's name, its parts possibly quoted separately ("~/.aws", "credentials"). */
  private static final Pattern SECRET_FILE = Pattern.compile(
      "\\bid_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?\\b(?!\\.pub)|\\.gnupg\\b|\\.password-store\\b|\\.netrc\\b|\\.pgpass\\b"
          + "|\\.git-credentials\\b|\\.vault-token\\b|\\.pypirc\\b"
          + "|\\.aws['\"]?\\s*(?:/|,|\\)?\\s*/|\\)?\\.joinpath\\(\\s*['\"])\\s*['\"]?(?:credentials|config)\\b"
          + "|\\.docker['\"]?\\s*(?:/|,|\\)?\\s*/|\\)?\\.joinpath\\(\\s*['\"])\\s*['\"]?config\\.json\\b"
          + "|\\.kube['\"]?\\s*(?:/|,|\\)?\\s*/|\\)?\\.joinpath\\(\\s*['\"])\\s*['\"]?config\\b");
  private static final Pattern WAY_OUT = Pattern.compile(
      "\\bsocket\\.(?:socket|create_connection)\\b|\\bTCPSocket\\b|\\bnet\\.(?:connect|createConnection|Socket)\\b"
          + "|\\bsocketConnection\\s*\\(|/dev/(?:tcp|udp)/|(?<![\\w./-])(?:nc|ncat|netcat|socat)\\s"
          + "|\\bsmtplib\\b|\\bSMTP(?:_SSL)?\\s*\\(|\\bnodemailer\\b|\\bNet::SMTP\\b|\\bMail\\.(?:deliver|new)\\b"
          + "|\\bsendmailR?\\b|\\bblastula\\b|\\bemayili\\b|\\badd_attachment\\s*\\(|\\battachments?\\s*[:=]"
          + "|\\bupload_file\\s*\\(|\\bform_file\\s*\\(|\\bopenssl\\s+s_client\\b");

  private SecretSends() {}

  /** The flags of a block's text; empty when it sends no secret file out by these ways. */
  public static List<Flag> judge(String code) {
    List<Flag> out = new ArrayList<>();
    Matcher secret = SECRET_FILE.matcher(code);
    Matcher way = WAY_OUT.matcher(code);
    if (secret.find() && way.find() && !Hosts.onlyLocal(code)) {
      out.add(Flag.high("secret-send", "sends a secret file (" + secret.group().replaceAll("['\"\\s]", "")
          + ") out of this machine (" + way.group().strip() + ")"));
    }
    return out;
  }
}
