// Module hooks for scripts/measure-walk.ts: every function of src/ and functions/ is compiled with a call to
// globalThis.__walk.enter(FILE, NAME) on entry and __walk.exit() on the way out (return or throw), so the driver sees
// which file runs when. Generators and async functions are left alone (their bodies suspend).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import ts from 'typescript';

let root;

export function initialize(data) {
  root = data.root;
}

function instrument(file, source) {
  const f = ts.factory;
  const transformer = (context) => {
    const visit = (node) => {
      node = ts.visitEachChild(node, visit, context);
      if (!ts.isFunctionLike(node) || node.body === undefined || node.asteriskToken !== undefined) return node;
      if (node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) return node;
      // A derived class's constructor must call super() before anything uses `this`: left alone.
      if (
        ts.isConstructorDeclaration(node) &&
        node.parent?.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword)
      )
        return node;
      const statements = ts.isBlock(node.body) ? node.body.statements : [f.createReturnStatement(node.body)];
      const walk = f.createPropertyAccessExpression(f.createIdentifier('globalThis'), '__walk');
      const name = node.name !== undefined && ts.isIdentifier(node.name) ? node.name.text : '';
      const body = f.createBlock(
        [
          f.createExpressionStatement(
            f.createCallExpression(f.createPropertyAccessExpression(walk, 'enter'), undefined, [
              f.createStringLiteral(file),
              f.createStringLiteral(name),
            ]),
          ),
          f.createTryStatement(
            f.createBlock(statements, true),
            undefined,
            f.createBlock(
              [
                f.createExpressionStatement(
                  f.createCallExpression(f.createPropertyAccessExpression(walk, 'exit'), undefined, []),
                ),
              ],
              true,
            ),
          ),
        ],
        true,
      );
      if (ts.isArrowFunction(node))
        return f.updateArrowFunction(
          node,
          node.modifiers,
          node.typeParameters,
          node.parameters,
          node.type,
          node.equalsGreaterThanToken,
          body,
        );
      if (ts.isFunctionDeclaration(node))
        return f.updateFunctionDeclaration(
          node,
          node.modifiers,
          node.asteriskToken,
          node.name,
          node.typeParameters,
          node.parameters,
          node.type,
          body,
        );
      if (ts.isFunctionExpression(node))
        return f.updateFunctionExpression(
          node,
          node.modifiers,
          node.asteriskToken,
          node.name,
          node.typeParameters,
          node.parameters,
          node.type,
          body,
        );
      if (ts.isMethodDeclaration(node))
        return f.updateMethodDeclaration(
          node,
          node.modifiers,
          node.asteriskToken,
          node.name,
          node.questionToken,
          node.typeParameters,
          node.parameters,
          node.type,
          body,
        );
      if (ts.isGetAccessorDeclaration(node))
        return f.updateGetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, node.type, body);
      if (ts.isSetAccessorDeclaration(node))
        return f.updateSetAccessorDeclaration(node, node.modifiers, node.name, node.parameters, body);
      if (ts.isConstructorDeclaration(node))
        return f.updateConstructorDeclaration(node, node.modifiers, node.parameters, body);
      return node;
    };
    return (sf) => ts.visitNode(sf, visit);
  };
  const out = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: true,
      sourceMap: false,
    },
    transformers: { before: [transformer] },
  });
  return out.outputText;
}

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && /\.ts$/.test(new URL(url).pathname)) {
    const file = relative(root, fileURLToPath(url)).split('\\').join('/');
    if (/^(src|functions)\//.test(file))
      return {
        format: 'module',
        source: instrument(file, readFileSync(fileURLToPath(url), 'utf8')),
        shortCircuit: true,
      };
  }
  return nextLoad(url, context);
}
