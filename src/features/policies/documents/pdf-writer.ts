import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";

/**
 * A small top-to-bottom text layout over pdf-lib (decisions §11: a well-kept PDF library, never a
 * hand-written format). Only the standard 14 fonts, whose metrics ship inside pdf-lib: nothing is
 * read from disk or fetched. Pages are US Letter; text wraps on words and flows onto new pages.
 */
const PAGE = { width: 612, height: 792, margin: 60 };
const LABEL_WIDTH = 150;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);

export type DocumentMeta = { title: string; subject: string; at: Date };

export class PdfWriter {
  private page: PDFPage;
  private y: number;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  static async create(meta: DocumentMeta): Promise<PdfWriter> {
    // Metadata fixed from the input (no "now"): the same input gives the same bytes.
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.setTitle(meta.title);
    doc.setSubject(meta.subject);
    doc.setProducer("Partner Integration Service");
    doc.setCreator("Partner Integration Service");
    doc.setCreationDate(meta.at);
    doc.setModificationDate(meta.at);
    const [regular, bold] = await Promise.all([doc.embedFont(StandardFonts.Helvetica), doc.embedFont(StandardFonts.HelveticaBold)]);
    return new PdfWriter(doc, regular, bold);
  }

  title(text: string): void {
    this.lines(text, { font: this.bold, size: 20, width: this.textWidth() });
    this.gap(4);
  }

  heading(text: string): void {
    this.gap(8);
    this.lines(text, { font: this.bold, size: 12, width: this.textWidth() });
    this.gap(2);
  }

  paragraph(text: string, options: { muted?: boolean; size?: number } = {}): void {
    this.lines(text, { font: this.regular, size: options.size ?? 10, width: this.textWidth(), color: options.muted ? MUTED : INK });
    this.gap(6);
  }

  /** A label and its value(s) side by side; each value starts on its own line. */
  row(label: string, values: string[]): void {
    const size = 11;
    const valueLines = values.flatMap((value) => wrap(printable(this.regular, value), this.regular, size, this.textWidth() - LABEL_WIDTH));
    this.ensureRoom(lineHeight(size) * valueLines.length);
    this.page.drawText(printable(this.bold, label), { x: PAGE.margin, y: this.y - size, size, font: this.bold, color: MUTED });
    for (const line of valueLines) {
      this.page.drawText(line, { x: PAGE.margin + LABEL_WIDTH, y: this.y - size, size, font: this.regular, color: INK });
      this.y -= lineHeight(size);
    }
    this.gap(5);
  }

  rule(): void {
    this.gap(4);
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.width - PAGE.margin, y: this.y },
      thickness: 0.5,
      color: MUTED,
    });
    this.gap(10);
  }

  gap(points: number): void {
    this.y -= points;
  }

  save(): Promise<Uint8Array> {
    return this.doc.save();
  }

  private lines(text: string, style: { font: PDFFont; size: number; width: number; color?: ReturnType<typeof rgb> }): void {
    for (const line of wrap(printable(style.font, text), style.font, style.size, style.width)) {
      this.ensureRoom(lineHeight(style.size));
      this.page.drawText(line, { x: PAGE.margin, y: this.y - style.size, size: style.size, font: style.font, color: style.color ?? INK });
      this.y -= lineHeight(style.size);
    }
  }

  private textWidth(): number {
    return PAGE.width - 2 * PAGE.margin;
  }

  private ensureRoom(height: number): void {
    if (this.y - height >= PAGE.margin) return;
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }
}

const lineHeight = (size: number) => size * 1.35;

/**
 * Text the font can draw: the standard fonts encode WinAnsi only, and pdf-lib throws on anything
 * else, so a renter named "Zoë Łukasz 王" must not fail the archive job. Control characters become
 * spaces, accents outside the set are dropped ("Ł" stays only if the font has it), the rest is "?".
 */
export function printable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = "";
  for (const char of text.replace(/\p{Cc}+/gu, " ")) {
    const code = char.codePointAt(0) ?? 0;
    if (supported.has(code)) {
      out += char;
      continue;
    }
    const base = (STROKED[char] ?? char).normalize("NFKD").replace(/\p{M}/gu, "");
    out += [...base].every((c) => supported.has(c.codePointAt(0) ?? 0)) && base !== "" ? base : "?";
  }
  return out;
}

/** Letters with a stroke have no decomposition: their plain letter reads better than "?". */
const STROKED: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", Ŧ: "T", ŧ: "t" };

/** Greedy word wrap; a word wider than the line is cut. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    while (font.widthOfTextAtSize(current, size) > width && current.length > 1) {
      let cut = current.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(current.slice(0, cut), size) > width) cut--;
      lines.push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  if (current) lines.push(current);
  return lines.length ? lines : [""];
}
