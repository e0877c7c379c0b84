# interpreter4j R REPL driver, evaluated by
#   Rscript --vanilla -e 'eval(parse(text = Sys.getenv("I4J_R_DRIVER")))'
# behind a shell that moved the command channel to fd 3, copies of stdout and stderr to fds 4 and 5, and stdin
# to /dev/null. Protocol: each line on fd 3 is "<marker> <path-of-code-file>". The block's expressions are
# evaluated one by one in the global environment, visible values printed as at the R prompt; the first error
# ends the block with status 1 and "Error in <call> : <message>" on stderr; warnings are printed to stderr as
# they happen. Then "\002<marker> <status> -\n" goes to fds 4 and 5, after the block's output. quit() ends the
# process: the worker reports it and starts a new one.
local({
  Sys.unsetenv("I4J_R_DRIVER")
  options(keep.source = FALSE)
  commands <- file("/dev/fd/3", open = "r", raw = TRUE)
  marker_out <- file("/dev/fd/4", open = "w", raw = TRUE)
  marker_err <- file("/dev/fd/5", open = "w", raw = TRUE)

  # "Error in f(x) : message" as R prints it; the driver's own eval() is no call of the user's
  report <- function(condition, kind) {
    call <- conditionCall(condition)
    message <- conditionMessage(condition)
    if (is.null(call) || identical(call[[1]], quote(eval))) {
      cat(kind, ": ", message, "\n", sep = "", file = stderr())
    } else {
      cat(kind, " in ", paste(deparse(call, nlines = 1), collapse = ""), " : ", message, "\n", sep = "",
          file = stderr())
    }
  }

  run <- function(path) {
    expressions <- tryCatch(parse(file = path, encoding = "UTF-8"), error = function(e) {
      cat("Error: ", conditionMessage(e), "\n", sep = "", file = stderr())
      NULL
    })
    if (is.null(expressions)) return(1L)
    for (expression in expressions) {
      status <- tryCatch(withCallingHandlers({
        result <- withVisible(eval(expression, envir = globalenv()))
        if (result$visible) {
          if (isS4(result$value)) methods::show(result$value) else print(result$value)
        }
        0L
      }, warning = function(w) {
        report(w, "Warning")
        invokeRestart("muffleWarning")
      }), error = function(e) {
        report(e, "Error")
        1L
      }, interrupt = function(i) {
        cat("Interrupted (SIGINT)\n", file = stderr())
        130L
      })
      if (status != 0L) return(status)
    }
    0L
  }

  repeat {
    # an interrupt while idle only breaks this read; read again
    line <- tryCatch(readLines(commands, n = 1L, warn = FALSE), interrupt = function(i) NA_character_)
    if (length(line) == 0L) break
    if (is.na(line[1L])) next
    space <- regexpr(" ", line, fixed = TRUE)
    marker <- substr(line, 1L, space - 1L)
    path <- substr(line, space + 1L, nchar(line))
    status <- tryCatch(run(path), interrupt = function(i) 130L)
    flush(stdout())
    flush(stderr())
    done <- sprintf("\002%s %d -\n", marker, status)
    cat(done, file = marker_out)
    flush(marker_out)
    cat(done, file = marker_err)
    flush(marker_err)
  }
  quit(save = "no", status = 0L)
})
