package io.interpreter4j.core.safety.python;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.ShellEffects;

/** A family of python call rules ({@link ProcessCalls}, {@link FileCalls}, ...): what each rule reads and feeds. */
abstract class PythonCallRules {

  final PythonBlock block;
  final PythonSource src;
  final PythonValues values;
  final Findings findings;
  final ShellEffects shell;

  PythonCallRules(PythonBlock block) {
    this.block = block;
    this.src = block.src();
    this.values = block.values();
    this.findings = block.findings();
    this.shell = block.shell();
  }
}
