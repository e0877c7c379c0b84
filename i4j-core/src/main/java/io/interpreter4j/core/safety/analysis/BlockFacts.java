package io.interpreter4j.core.safety.analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Facts about a whole block that only mean danger together, gathered from every command and every language the
 * block uses: a connection to a remote database and a statement that deletes data; a process list and a signal to a
 * process the block did not start; a secret and a DNS name or raw socket built at run time. Also what the block made
 * itself (containers, local git remotes), so later commands on them are judged as the block's own.
 */
public final class BlockFacts {

  private final Set<String> containers = new LinkedHashSet<>();
  private final Set<String> localRemotes = new LinkedHashSet<>();
  private final Set<String> remoteData = new LinkedHashSet<>();
  private final Set<String> destructiveData = new LinkedHashSet<>();
  private final Set<String> secretVariables = new LinkedHashSet<>();
  private String processList;
  private String foreignSignal;
  private String dynamicDns;
  private String rawSocket;
  private String fetchedCode;
  private String computedCode;

  /** A container the block starts under this name ({@code docker run --name x}). */
  public void containerStarted(String name) {
    containers.add(name);
  }

  public boolean startedContainer(String name) {
    return containers.contains(name);
  }

  /** A git remote the block points at a folder on this machine ({@code git remote add x /tmp/y.git}). */
  public void localRemote(String name) {
    localRemotes.add(name);
  }

  public boolean isLocalRemote(String name) {
    return localRemotes.contains(name);
  }

  /** The block connects to a database, cache, bucket or forge on another machine ("postgres at db.example.com"). */
  public void remoteData(String what) {
    remoteData.add(what);
  }

  /** The block runs a statement or call that deletes stored data ("DROP TABLE", "flushAll"). */
  public void destructiveData(String what) {
    destructiveData.add(what);
  }

  /** The block reads an environment variable whose name says it holds a secret ({@code $AWS_SECRET_ACCESS_KEY}). */
  public void secretVariable(String name) {
    secretVariables.add(name);
  }

  public Set<String> secretVariables() {
    return Set.copyOf(secretVariables);
  }

  /** The block lists processes by name, port or owner (pgrep, pidof, lsof -t, psutil.process_iter). */
  public void processList(String how) {
    if (processList == null) {
      processList = how;
    }
  }

  /** The block signals a process it did not start itself (a pid it did not get from spawn, Popen or $!). */
  public void foreignSignal(String how) {
    if (foreignSignal == null) {
      foreignSignal = how;
    }
  }

  /** The block resolves a host name built at run time ({@code dig "$X.example.net"}): DNS can carry data out. */
  public void dynamicDns(String how) {
    if (dynamicDns == null) {
      dynamicDns = how;
    }
  }

  /** The block opens a raw network connection (nc, socket.connect, TCPSocket). */
  public void rawSocket(String how) {
    if (rawSocket == null) {
      rawSocket = how;
    }
  }

  /** The block evaluates code it built at run time (eval of a variable, new Function, exec of a string). */
  public void computedCode(String how) {
    if (computedCode == null) {
      computedCode = how;
    }
  }

  /** The block fetches something over the network that could be code (an HTTP GET, a download). */
  public void fetched(String how) {
    if (fetchedCode == null) {
      fetchedCode = how;
    }
  }

  /**
   * The flags the facts make together.
   *
   * @param secretsRead whether the block reads a secret file or the whole environment
   */
  public List<Flag> combine(boolean secretsRead) {
    List<Flag> out = new ArrayList<>();
    if (!remoteData.isEmpty() && !destructiveData.isEmpty()) {
      out.add(Flag.high("remote-data-delete", "deletes data on a remote system (" + String.join(", ", destructiveData)
          + " on " + String.join(", ", remoteData) + ")"));
    }
    if (processList != null && foreignSignal != null) {
      out.add(Flag.high("kill-listed", "kills processes it did not start, found with " + processList));
    }
    boolean secrets = secretsRead || !secretVariables.isEmpty();
    String what = secretVariables.isEmpty() ? "secrets" : "$" + String.join(", $", secretVariables);
    if (secrets && dynamicDns != null) {
      out.add(Flag.high("dns-exfiltration", "puts " + what + " into DNS names it looks up (" + dynamicDns + ")"));
    } else if (secrets && rawSocket != null) {
      out.add(Flag.high("socket-exfiltration", "sends " + what + " over a raw socket (" + rawSocket + ")"));
    }
    if (fetchedCode != null && computedCode != null) {
      out.add(Flag.high("run-downloaded", "runs code fetched from the network (" + fetchedCode + ", then " + computedCode + ")"));
    }
    return out;
  }
}
