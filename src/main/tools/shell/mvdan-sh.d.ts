// mvdan-sh ships no types. This declares only the surface Folio uses; AST nodes stay `unknown` and are
// read through the narrowing helpers in syntax.ts.
declare module 'mvdan-sh' {
  interface ShParser {
    Parse(src: string, name: string): unknown;
  }
  interface ShPrinter {
    Print(node: unknown): string;
  }
  interface ShSyntax {
    NewParser(...options: unknown[]): ShParser;
    NewPrinter(...options: unknown[]): ShPrinter;
    Walk(node: unknown, visit: (node: unknown) => boolean): void;
    NodeType(node: unknown): string;
  }
  const sh: { syntax: ShSyntax };
  export default sh;
}
