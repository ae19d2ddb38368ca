// "data:," URLs as the Container Linux Config transpiler writes them (vincent-petithory/dataurl EscapeString):
// only [A-Za-z0-9] and -_.!~*'() stay literal; every other byte is %XX with uppercase hex.
export function dataUrl(content: string): string {
  let out = 'data:,';
  for (const b of Buffer.from(content, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.!~*'()]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}
