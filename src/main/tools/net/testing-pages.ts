// Pages that took node-html-markdown a minute on the main thread before conversion was split and
// moved to a worker: a wide table of 1.16 MB and a paragraph of links of 760 KB. The
// tests and the benchmark generate them here, so both measure the same pages.

export function tablePage(targetBytes = 1_160_000): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i += 1) {
    const row = `<tr><td>row ${i}</td><td>value ${i * 7}</td><td>note ${i % 97}</td></tr>\n`;
    rows.push(row);
    size += row.length;
  }
  return `<!doctype html><html><head><title>Big table</title></head><body><table><thead><tr><th>A</th><th>B</th><th>C</th></tr></thead><tbody>\n${rows.join('')}</tbody></table></body></html>`;
}

export function linkPage(targetBytes = 760_000): string {
  const links: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i += 1) {
    const link = `<a href="/item/${i}">item ${i}</a> `;
    links.push(link);
    size += link.length;
  }
  return `<!doctype html><html><head><title>Many links</title></head><body><p>${links.join('')}</p></body></html>`;
}
