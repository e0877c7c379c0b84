# interpreter4j R REPL driver, evaluated by
#   Rscript --vanilla -e 'eval(parse(text = Sys.getenv("I4J_R_DRIVER")))'
# behind a shell that moved the command channel to fd 3, copies of stdout and stderr to fds 4 and 5, and stdin
# to /dev/null. Protocol: each line on fd 3 is "<marker> <path-of-code-file>". The block's expressions are
# evaluated one by one in the global environment, visible values printed as at the R prompt; the first error
# ends the block with status 1 and "Error in <call> : <message>" on stderr; warnings are printed to stderr as
# they happen. Then "\002<marker> <status> -\n" goes to fds 4 and 5, after the block's output. quit() ends the
# process: the worker reports it and starts a new one.
# Plots: a PNG device is opened before each block and closed after it; every page drawn on it becomes a line
# "\002<marker>:image r <base64 of the PNG>\n" on fd 4 before the end line (the Java side checks, limits and saves
# them). Pages past the eighth are not sent: a line "\002<marker>:dropped <n>\n" counts them.
local({
  Sys.unsetenv("I4J_R_DRIVER")
  options(keep.source = FALSE)
  # The last guard: an interrupt that finds no handler of the driver's (between two of its steps, in a handler) is
  # dropped and R goes on where it was, instead of unwinding to the top, where Rscript would end ("Execution
  # halted"). Set again before each block, which may have changed it.
  resume_on_interrupt <- function() tryInvokeRestart("resume")
  options(interrupt = resume_on_interrupt)
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

  max_images <- 8L  # ImageBudget.MAX_IMAGES on the Java side
  alphabet <- charToRaw("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

  # base64 of bytes, computed in pieces of 3 * 2^16 bytes so no vector grows larger than a piece's
  base64 <- function(bytes) {
    piece <- 3L * 65536L
    parts <- character(0)
    for (start in seq(1L, length(bytes), by = piece)) {
      chunk <- as.integer(bytes[start:min(length(bytes), start + piece - 1L)])
      pad <- (3L - length(chunk) %% 3L) %% 3L
      triples <- matrix(c(chunk, integer(pad)), nrow = 3L)
      x <- triples[1L, ] * 65536L + triples[2L, ] * 256L + triples[3L, ]
      out <- alphabet[rbind(x %/% 262144L, (x %/% 4096L) %% 64L, (x %/% 64L) %% 64L, x %% 64L) + 1L]
      if (pad > 0L) out[(length(out) - pad + 1L):length(out)] <- charToRaw("=")
      parts <- c(parts, rawToChar(out))
    }
    paste(parts, collapse = "")
  }

  # a PNG device for the block's plots, in a folder of its own; the files appear as pages are finished
  open_plots <- function() {
    folder <- tempfile("i4j-plots-")
    dir.create(folder)
    type <- if (isTRUE(capabilities("cairo"))) "cairo" else NULL
    # a warning must not pass for a failure: the device may be open all the same
    opened <- tryCatch(withCallingHandlers({
      if (is.null(type)) png(file.path(folder, "page-%04d.png"), width = 640L, height = 480L)
      else png(file.path(folder, "page-%04d.png"), width = 640L, height = 480L, type = type)
      TRUE
    }, warning = function(w) invokeRestart("muffleWarning")), error = function(e) FALSE)
    list(folder = folder, device = if (opened) dev.cur() else NA_integer_)
  }

  # closes the block's device (if the block left it open) and sends its pages, then removes the folder
  send_plots <- function(plots, marker) {
    if (!is.na(plots$device) && plots$device %in% dev.list()) {
      tryCatch(invisible(dev.off(plots$device)), error = function(e) NULL)
    }
    pages <- sort(list.files(plots$folder, pattern = "^page-[0-9]+[.]png$", full.names = TRUE))
    for (page in head(pages, max_images)) {
      bytes <- readBin(page, what = "raw", n = file.size(page))
      if (length(bytes) > 0L) cat(sprintf("\002%s:image r %s\n", marker, base64(bytes)), file = marker_out)
    }
    if (length(pages) > max_images) {
      cat(sprintf("\002%s:dropped %d\n", marker, length(pages) - max_images), file = marker_out)
    }
    flush(marker_out)
    unlink(plots$folder, recursive = TRUE)
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

  # SIGINT (a timeout's or a person's) ends the running block, never the driver: uncaught, an interrupt would end
  # Rscript and the session's R state with it. One that comes while the driver waits for a command is for no block
  # and is dropped; one that comes while the plot device opens ends the block with 130 before its code runs; one that
  # comes as the end marker goes out is held until the marker is out, then dropped. An interrupt that finds the
  # driver anywhere else ends the block it read with 130.
  pending <- NULL  # the marker of the block read and not yet ended

  end_block <- function(status) {
    if (is.null(pending)) return(invisible())
    done <- sprintf("\002%s %d -\n", pending, status)
    tryCatch(suspendInterrupts({
      flush(stdout())
      flush(stderr())
      cat(done, file = marker_out)
      flush(marker_out)
      cat(done, file = marker_err)
      flush(marker_err)
      pending <<- NULL
    }), interrupt = function(i) NULL)
  }

  # reads one command and runs its block; FALSE at the end of the commands
  serve_one <- function() {
    # The wait for a command and its read hold interrupts: one raised as the read returns would lose the command
    # read (its block would never end). A signal can end a held read early, empty, as if the commands had ended: an
    # empty read is tried again, and only a second one in a row is the end (a closed pipe answers at once).
    line <- character(0)
    path <- NULL
    tryCatch(suspendInterrupts({
      for (attempt in 1:2) {
        line <- readLines(commands, n = 1L, warn = FALSE)
        if (length(line) > 0L) break
      }
      if (length(line) > 0L) {
        space <- regexpr(" ", line, fixed = TRUE)
        pending <<- substr(line, 1L, space - 1L)
        path <- substr(line, space + 1L, nchar(line))
      }
    }), interrupt = function(i) NULL)
    # An interrupt held meanwhile came while no block ran: it is for none (a late one, for the block before). R raises
    # a pending interrupt at its next check, up to 1000 evaluations later, which would be in this block: 1100 empty
    # evaluations make that check happen here, where it is dropped.
    tryCatch(for (i in 1:1100) NULL, interrupt = function(i) NULL)
    if (length(line) == 0L) return(FALSE)
    status <- 130L
    plots <- NULL
    options(interrupt = resume_on_interrupt)
    tryCatch({
      plots <- tryCatch(open_plots(), error = function(e) NULL)  # no folder for plots: the block runs without
      status <- run(path)
    }, interrupt = function(i) NULL)
    if (!is.null(plots)) tryCatch(send_plots(plots, pending), error = function(e) {
      cat("[plots not shown: ", conditionMessage(e), "]\n", sep = "", file = stderr())
    }, interrupt = function(i) NULL)
    end_block(status)
    TRUE
  }

  repeat {
    more <- tryCatch(serve_one(), interrupt = function(i) {
      end_block(130L)
      TRUE
    })
    if (!more) break
  }
  quit(save = "no", status = 0L)
})
