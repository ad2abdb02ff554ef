/**
 * Test documents, generated rather than committed: PDFs printed by headless Chromium from known
 * HTML, scans (image-only PDFs and PNGs) from its screenshots, XLSX with exceljs, DOCX and PPTX
 * as minimal Office Open XML zipped with jszip. The texts they carry are exported, so tests and
 * benches compare against what went in.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { Browser } from 'playwright-core';
import { findChromium, launchChromium } from '../../src/scrape/engines/browser/chromium.js';

let browser: Promise<Browser> | undefined;

function chromium(): Promise<Browser> {
  const path = findChromium(process.env.CHROMIUM_PATH);
  if (!path) throw new Error('Chromium is needed to generate PDF fixtures (Debian package "chromium")');
  browser ??= launchChromium(path);
  return browser;
}

/** Closes the browser the generators started, if any. */
export async function closeDocumentBrowser(): Promise<void> {
  const b = browser;
  browser = undefined;
  if (b) await (await b).close();
}

const PAGE_CSS = `body{font-family:"DejaVu Sans",sans-serif;font-size:14px;line-height:1.5;margin:0}
h1{font-size:30px} h2{font-size:21px} td,th{padding:4px 28px;text-align:left}
.break{break-before:page}`;

/** Prints HTML to a PDF (A4, no header or footer). */
export async function htmlToPdf(html: string, opts: { title?: string } = {}): Promise<Buffer> {
  const page = await (await chromium()).newPage();
  try {
    await page.setContent(withHead(html, opts.title));
    return await page.pdf({ format: 'A4', margin: { top: '40px', bottom: '40px', left: '40px', right: '40px' } });
  } finally {
    await page.close();
  }
}

/** A screenshot of HTML at the given width: a PNG with no text layer. */
export async function htmlToPng(html: string, width = 900): Promise<Buffer> {
  const page = await (await chromium()).newPage({ viewport: { width, height: 400 } });
  try {
    await page.setContent(withHead(html));
    return await page.screenshot({ fullPage: true });
  } finally {
    await page.close();
  }
}

/** A scanned-looking PDF: each HTML page is rasterised first, so the PDF holds only images. */
export async function htmlToScannedPdf(pagesHtml: string[]): Promise<Buffer> {
  const images = await Promise.all(pagesHtml.map((h) => htmlToPng(h, 800)));
  const body = images
    .map((png, i) => `<img src="data:image/png;base64,${png.toString('base64')}" style="width:100%;display:block" class="${i ? 'break' : ''}">`)
    .join('');
  const page = await (await chromium()).newPage();
  try {
    await page.setContent(withHead(body));
    return await page.pdf({ format: 'A4', margin: { top: '20px', bottom: '20px', left: '20px', right: '20px' } });
  } finally {
    await page.close();
  }
}

const withHead = (body: string, title?: string) =>
  `<!doctype html><html><head><meta charset="utf-8">${title ? `<title>${title}</title>` : ''}<style>${PAGE_CSS}</style></head><body>${body}</body></html>`;

/** The report: title, headings, prose, a bullet list, a table, and a second page. */
export const REPORT = {
  title: 'Harvest Report',
  pages: [
    `<h1>Harvest Report</h1>
<p>The harvest was plentiful this year and the barns are full of grain.</p>
<h2>Highlights</h2>
<p>• Wheat yields rose by a fifth<br>• Barley held steady<br>• Rye was planted late</p>
<h2>Yields</h2>
<table><tr><th>Crop</th><th>Tonnes</th><th>Fields</th></tr><tr><td>Wheat</td><td>120</td><td>Seven</td></tr><tr><td>Barley</td><td>45</td><td>Three</td></tr></table>`,
    `<h2>Outlook</h2><p>Next season the orchard gets new apple trees along the river.</p>`,
    `<h2>Appendix</h2><p>Storage inspections finished before the first frost.</p>`,
  ],
};

export const reportHtml = () => REPORT.pages.map((p, i) => `<div class="${i ? 'break' : ''}">${p}</div>`).join('');

/** Two columns of prose under a full-width title; reading order is left column, then right. */
export const TWO_COLUMNS = {
  html: `<h1>Field Notes</h1><div style="column-count:2;column-gap:48px">
<p>LEFTSTART The northern field drains slowly after rain, so the tractors wait a day before ploughing there. Clay holds the water and the furrows fill quickly.</p>
<p>Hedges on that side shelter nesting birds every spring and are trimmed only in winter. LEFTEND</p>
<p>RIGHTSTART The southern field is sandy and warms early, which suits the first potatoes of the year. It needs more water in a dry July.</p>
<p>Its stone wall was rebuilt by hand last autumn with stones from the old barn. RIGHTEND</p></div>`,
};

/** A page whose text exists only as pixels: for OCR. */
export const SCAN = {
  lines: ['Invoice Number 4711', 'Seven barrels of apple cider delivered to the market'],
  html: () => `<div style="padding:30px;font-size:28px"><h1 style="font-size:44px">${SCAN.lines[0]}</h1><p>${SCAN.lines[1]}</p></div>`,
};

export async function makeXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const a = wb.addWorksheet('Inventory');
  a.addRows([
    ['Item', 'Count', 'Price'],
    ['Apples', 12, 0.5],
    ['Pears', 7, 0.75],
  ]);
  const b = wb.addWorksheet('Staff');
  b.addRows([
    ['Name', 'Role'],
    ['Ada', 'Farmer'],
    ['Grace', 'Miller'],
  ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const para = (text: string, style?: string, num = false) =>
  `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}${num ? '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' : ''}</w:pPr><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const cellXml = (text: string) => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;

/** A DOCX with a heading, prose, a bullet list and a table. */
export async function makeDocx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>`,
  );
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`,
  );
  zip.file(
    'word/numbering.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
  );
  const body = [
    para('Mill Handbook', 'Heading1'),
    para('Grinding starts at dawn when the stones are cool.'),
    para('Safety', 'Heading2'),
    para('Keep hands clear of the hopper', undefined, true),
    para('Stop the wheel before cleaning', undefined, true),
    `<w:tbl><w:tr>${cellXml('Grain')}${cellXml('Sacks')}</w:tr><w:tr>${cellXml('Spelt')}${cellXml('14')}</w:tr></w:tbl>`,
  ].join('');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const shape = (ph: string | undefined, paras: string[]) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${ph ? `<p:ph type="${ph}"/>` : ''}</p:nvPr></p:nvSpPr><p:txBody>${paras.map((t) => `<a:p><a:r><a:t>${t}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>`;

/**
 * A PPTX of two slides whose files are named against their order (slide2.xml is shown first),
 * the first with bullet points and speaker notes.
 */
export const PPTX_SLIDES = [
  { file: 'slide2.xml', title: 'Spring Planting', body: ['Order seed by March', 'Check the drill'], notes: 'Remind everyone about the seed order' },
  { file: 'slide1.xml', title: 'Autumn Harvest', body: ['Hire extra hands'], notes: undefined },
];

export async function makePptx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
  );
  const ids = PPTX_SLIDES.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + i}"/>`).join('');
  zip.file('ppt/presentation.xml', `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${P}><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>`);
  const rels = PPTX_SLIDES.map(
    (s, i) => `<Relationship Id="rId${10 + i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/${s.file}"/>`,
  ).join('');
  zip.file('ppt/_rels/presentation.xml.rels', `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`);
  PPTX_SLIDES.forEach((s, i) => {
    zip.file(`ppt/slides/${s.file}`, `<?xml version="1.0" encoding="UTF-8"?><p:sld ${P}><p:cSld><p:spTree>${shape('title', [s.title])}${shape('body', s.body)}</p:spTree></p:cSld></p:sld>`);
    if (s.notes) {
      zip.file(
        `ppt/slides/_rels/${s.file}.rels`,
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide${i + 1}.xml"/></Relationships>`,
      );
      zip.file(
        `ppt/notesSlides/notesSlide${i + 1}.xml`,
        `<?xml version="1.0" encoding="UTF-8"?><p:notes ${P}><p:cSld><p:spTree>${shape('sldImg', [])}${shape('body', [s.notes])}</p:spTree></p:cSld></p:notes>`,
      );
    }
  });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The set served by the fixture site under /docs/ and uploaded by the parse tests. */
export interface DocumentSet {
  reportPdf: Buffer;
  twoColumnPdf: Buffer;
  scannedPdf: Buffer;
  scanPng: Buffer;
  docx: Buffer;
  xlsx: Buffer;
  pptx: Buffer;
}

export async function makeDocumentSet(): Promise<DocumentSet> {
  const [reportPdf, twoColumnPdf, scannedPdf, scanPng, docx, xlsx, pptx] = await Promise.all([
    htmlToPdf(reportHtml(), { title: REPORT.title }),
    htmlToPdf(TWO_COLUMNS.html),
    htmlToScannedPdf([SCAN.html(), '<div style="padding:30px;font-size:28px"><p>Second scanned page about pumpkins</p></div>']),
    htmlToPng(SCAN.html(), 900),
    makeDocx(),
    makeXlsx(),
    makePptx(),
  ]);
  return { reportPdf, twoColumnPdf, scannedPdf, scanPng, docx, xlsx, pptx };
}
