# interpreter4j PowerShell REPL driver, run as `pwsh -NoLogo -NoProfile -NonInteractive -Command <this file>`
# behind a shell that moved the command channel to fd 3, copies of stdout and stderr to fds 4 and 5, and stdin
# to /dev/null. Protocol: each line on fd 3 is "<marker> <path-of-code-file>". The block is dot-sourced in the
# global scope, so variables and functions persist. Its status: 1 after a terminating error (printed to
# stderr); else $LASTEXITCODE when a native command set it non-zero; else 1 when the block wrote an error
# record; else 0. Then "\x02<marker> <status> -\n" goes to fds 4 and 5. Untested where it was written (no pwsh).
# Driver variables start with __i4j so user code is unlikely to touch them.
$__i4jOpen = {
  param([string] $path, [System.IO.FileAccess] $access)
  [System.IO.FileStream]::new($path, [System.IO.FileMode]::Open, $access, [System.IO.FileShare]::ReadWrite)
}
$__i4jCommands = [System.IO.StreamReader]::new((& $__i4jOpen '/dev/fd/3' ([System.IO.FileAccess]::Read)))
$__i4jMarkerOut = & $__i4jOpen '/dev/fd/4' ([System.IO.FileAccess]::Write)
$__i4jMarkerErr = & $__i4jOpen '/dev/fd/5' ([System.IO.FileAccess]::Write)
$ProgressPreference = 'SilentlyContinue'
[Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false)
$OutputEncoding = [System.Text.UTF8Encoding]::new($false)

while ($true) {
  $__i4jLine = $__i4jCommands.ReadLine()
  if ($null -eq $__i4jLine) { break }
  $__i4jSpace = $__i4jLine.IndexOf(' ')
  $__i4jMarker = $__i4jLine.Substring(0, $__i4jSpace)
  $__i4jPath = $__i4jLine.Substring($__i4jSpace + 1)
  $global:LASTEXITCODE = 0
  $__i4jErrors = $Error.Count
  $__i4jStatus = 0
  try {
    . $__i4jPath | Out-Default
    if ($global:LASTEXITCODE -is [int] -and $global:LASTEXITCODE -ne 0) {
      $__i4jStatus = $global:LASTEXITCODE -band 0xff
    } elseif ($Error.Count -gt $__i4jErrors) {
      $__i4jStatus = 1
    }
  } catch [System.Management.Automation.PipelineStoppedException] {
    [Console]::Error.WriteLine('Interrupted (SIGINT)')
    $__i4jStatus = 130
  } catch {
    [Console]::Error.WriteLine(($_ | Out-String).TrimEnd())
    $__i4jStatus = 1
  }
  [Console]::Out.Flush()
  [Console]::Error.Flush()
  $__i4jDone = [System.Text.Encoding]::ASCII.GetBytes("$([char]2)$__i4jMarker $__i4jStatus -`n")
  $__i4jMarkerOut.Write($__i4jDone, 0, $__i4jDone.Length)
  $__i4jMarkerOut.Flush()
  $__i4jMarkerErr.Write($__i4jDone, 0, $__i4jDone.Length)
  $__i4jMarkerErr.Flush()
}
