package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;

/** A family of script call rules ({@link ScriptProcesses}, {@link ScriptFiles}, ...): what each rule reads and feeds. */
abstract class ScriptCallRules {

  final ScriptBlock block;
  final ScriptSource src;
  final ScriptValues values;
  final Findings findings;
  final ShellEffects shell;
  final Dialect dialect;

  ScriptCallRules(ScriptBlock block) {
    this.block = block;
    this.src = block.src;
    this.values = block.values;
    this.findings = block.findings;
    this.shell = block.shell;
    this.dialect = block.dialect;
  }
}
