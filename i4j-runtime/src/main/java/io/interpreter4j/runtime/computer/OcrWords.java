package io.interpreter4j.runtime.computer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The words tesseract read on a screenshot ({@code tesseract IMAGE OUT tsv}), and where a visible text is: the words
 * of the text, in order on one line, matched without regard to case, surrounding punctuation or the letters OCR
 * confuses (I, l, | and 1; O and 0). Pure.
 */
public final class OcrWords {

  /** One word and its box, in screenshot pixels. */
  public record Word(String text, int left, int top, int width, int height, int block, int paragraph, int line,
                     double confidence) {}

  /** A match: the box around the matched words and its centre. */
  public record Match(int left, int top, int width, int height) {
    public int centerX() {
      return left + width / 2;
    }

    public int centerY() {
      return top + height / 2;
    }
  }

  private final List<Word> words;

  private OcrWords(List<Word> words) {
    this.words = List.copyOf(words);
  }

  /** Reads tesseract's TSV output (level 5 rows are words). */
  public static OcrWords parseTsv(String tsv) {
    List<Word> words = new ArrayList<>();
    for (String row : tsv.split("\n")) {
      String[] f = row.split("\t", -1);
      if (f.length < 12 || !f[0].strip().equals("5")) {
        continue;
      }
      String text = f[11].strip();
      if (text.isEmpty()) {
        continue;
      }
      try {
        words.add(new Word(text, Integer.parseInt(f[6].strip()), Integer.parseInt(f[7].strip()),
            Integer.parseInt(f[8].strip()), Integer.parseInt(f[9].strip()), Integer.parseInt(f[2].strip()),
            Integer.parseInt(f[3].strip()), Integer.parseInt(f[4].strip()), Double.parseDouble(f[10].strip())));
      } catch (NumberFormatException e) {
        // a malformed row: skipped
      }
    }
    return new OcrWords(words);
  }

  public List<Word> words() {
    return words;
  }

  /** Every place {@code text} appears, top to bottom, left to right. */
  public List<Match> find(String text) {
    List<String> wanted = new ArrayList<>();
    for (String w : text.strip().split("\\s+")) {
      String n = normalize(w);
      if (!n.isEmpty()) {
        wanted.add(n);
      }
    }
    List<Match> found = new ArrayList<>();
    if (wanted.isEmpty()) {
      return found;
    }
    for (int i = 0; i + wanted.size() <= words.size(); i++) {
      boolean all = true;
      for (int k = 0; k < wanted.size() && all; k++) {
        Word w = words.get(i + k);
        Word first = words.get(i);
        all = normalize(w.text()).equals(wanted.get(k)) && w.block() == first.block()
            && w.paragraph() == first.paragraph() && w.line() == first.line();
      }
      if (all) {
        int left = Integer.MAX_VALUE;
        int top = Integer.MAX_VALUE;
        int right = 0;
        int bottom = 0;
        for (int k = 0; k < wanted.size(); k++) {
          Word w = words.get(i + k);
          left = Math.min(left, w.left());
          top = Math.min(top, w.top());
          right = Math.max(right, w.left() + w.width());
          bottom = Math.max(bottom, w.top() + w.height());
        }
        found.add(new Match(left, top, right - left, bottom - top));
      }
    }
    found.sort((a, b) -> a.top() != b.top() ? Integer.compare(a.top(), b.top()) : Integer.compare(a.left(), b.left()));
    return found;
  }

  /** The first place {@code text} appears. */
  public Optional<Match> first(String text) {
    List<Match> all = find(text);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
  }

  /** Lower case, without surrounding punctuation, with the letters OCR confuses made one (I l | 1, O 0). */
  static String normalize(String word) {
    String w = word.toLowerCase(Locale.ROOT).replaceAll("^[\\p{Punct}&&[^|]]+|[\\p{Punct}&&[^|]]+$", "");
    return w.replaceAll("[l|1!]", "i").replace('0', 'o');
  }
}
