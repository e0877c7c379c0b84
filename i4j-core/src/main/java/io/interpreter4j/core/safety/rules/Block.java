package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.BlockFacts;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Place;

/**
 * What a rule family may ask of, and tell, the analysis of the block a command sits in. The language analyzers
 * implement it; the rules never see their syntax.
 */
public interface Block {

  /** Where a path argument of the command lies, resolved against the block's current folder and variables. */
  Place place(String path);

  /** A finding about the command. */
  void flag(Flag flag);

  /** Shell code the command runs (ssh's remote command, a container's command): analysed as bash. */
  void runShell(String code);

  /**
   * A local file the command sends to another machine (a gist, a release asset, a bucket, a file host): a secret
   * sent this way leaves the machine like one posted with curl.
   */
  void sends(String path);

  /** Facts gathered across the block's commands (containers it started, local remotes, combinations). */
  BlockFacts facts();
}
