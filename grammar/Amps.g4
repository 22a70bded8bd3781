// Amps.g4: the whole amps grammar (LANGUAGE.md §1-3). Newline handling that depends on
// bracket depth and on the previous token lives in interp/token_filter, not here.
grammar Amps;

// ---------------------------------------------------------------- statements
program      : sep* (statement (sep+ statement)*)? sep* EOF ;
sep          : NEWLINE | ';' ;
exprOnly     : expr EOF ;                 // an f-string's embedded expression
block        : '{' sep* (statement (sep+ statement)*)? sep* '}' ;

statement
  : letStmt | fnDecl | classDecl | ifStmt | whileStmt | forStmt | tryStmt
  | autocastStmt | gradModeStmt | withStmt | importStmt | returnStmt | breakStmt | continueStmt
  | assertStmt | raiseStmt | passStmt | scopeStmt | delStmt | exprStmt
  ;

// Python's bare tuples: `let a, b = f()`, `let x = 1, 2` (the builder makes the tuple pattern / tuple value).
letStmt      : LET targets ('=' value=expr (',' values+=expr)* vtrail=','?)? ;
// One or more patterns: several (or one with a trailing comma) form a tuple, as `for i, x in ...` in Python.
targets      : pattern (',' pattern)* trailing=','? ;
pattern      : name                                     # namePattern
             | '*' name                                 # starPattern
             | '(' pattern (',' pattern)* ','? ')'      # tuplePattern
             | '[' pattern (',' pattern)* ','? ']'      # listPattern
             ;
// An expression, an assignment or an augmented assignment: one rule, so that choosing among them needs no
// lookahead past the target (three rules made the parser scan every expression statement twice).
// `a = b = v` (Python's chained assignment): the builder takes every expression before the last `=` as a target.
// `a, b = b, a`: bare tuples on either side of a plain assignment (the builder makes the tuples).
exprStmt     : target=expr (',' others+=expr)* ttrail=','?
               (op=('=' | '+=' | '-=' | '*=' | '/=' | '//=' | '%=' | '**=' | '@=' | '&=' | '|=' | '^='
                    | '<<=' | '>>=') value=expr (',' values+=expr)* vtrail=','? ('=' more+=expr)*)? ;

// `@no_grad` / `@no_grad()` / `@enable_grad...` reach the grad-mode builtins through the atom keywordRef.
decorator    : '@' postfix NEWLINE+ ;
// Python's annotations (`x: Tensor = none`, `-> Tensor`) are parsed and dropped, never evaluated (as with
// `from __future__ import annotations`).
fnDecl       : decorator* FN attrName '(' params? ')' ('->' result=expr)? block ;
// A bare `*` (restParam without a name): the parameters after it are keyword-only.
params       : param (',' param)* ','? ;
param        : name (':' annotation=expr)? ('=' value=expr)?   # plainParam
             | '*' (name (':' annotation=expr)?)?             # restParam
             | '**' name (':' annotation=expr)?               # kwRestParam
             ;
classDecl    : decorator* CLASS name ('(' base=expr ')')? classBody ;
// A leading string is the class's docstring (Python's), ignored.
classBody    : '{' sep* (STRING+ sep*)? (member (sep+ member)*)? sep* '}' ;
member       : fnDecl | letStmt | passStmt ;

ifStmt       : IF expr block (NEWLINE* ELSE (ifStmt | block))? ;
whileStmt    : WHILE expr block ;
forStmt      : FOR targets IN expr block ;
// `catch e { }` / `catch { }` (amps') and Python's `except T { }`, `except (A, B) as e { }`, bare `except { }`: tried in
// order; `else` runs when the body raised nothing (the builder checks that a catch-all comes last).
tryStmt      : TRY block (NEWLINE* handler)* (NEWLINE* ELSE elseBlock=block)? (NEWLINE* FINALLY finallyBlock=block)? ;
handler      : CATCH name? block                          # catchAll
             | EXCEPT (exceptType (AS name)?)? block      # exceptClause
             ;
// The types a clause catches: a (dotted) name or a parenthesised tuple; never a bare `{`, which opens the block.
exceptType   : name ('.' attrName)*                       # exceptName
             | '(' expr (',' expr)* trailing=','? ')'     # exceptTuple
             ;
autocastStmt : AUTOCAST postfix '<' (autocastArg (',' autocastArg)*)? '>' block ;
// An argument is any expression without a comparison (its `>` would close the brackets): `enabled=not f and g`.
autocastArg  : (attrName '=')? autocastOr ;
autocastOr   : autocastAnd (OR autocastAnd)* ;
autocastAnd  : autocastNot (AND autocastNot)* ;
autocastNot  : NOT autocastNot | arith ;
// no_grad { }, enable_grad { }, set_grad_enabled(mode) { }; without a block `set_grad_enabled(mode)` is an
// expression statement calling the builtin (torch.set_grad_enabled as a function: sets the mode until changed).
gradModeStmt : NO_GRAD block | ENABLE_GRAD block | SET_GRAD_ENABLED '(' expr ')' block ;
// Python's with statement: `with no_grad(), open(p) as f { }`; items nest left to right; a target is a name or
// a (nested) tuple/list of names, bound in the enclosing scope.
withStmt     : WITH withItem (',' withItem)* block ;
withItem     : expr (AS pattern)? ;
importStmt   : IMPORT name ('.' attrName)* (AS alias=name)?   # moduleImport
             | IMPORT STRING AS alias=name                 # fileImport
             // Python's `from a.b import c, d as e` (also in parentheses); `from` is a soft keyword here only (the
             // builder checks the name's text), so it stays free as a name elsewhere.
             | from=NAME name ('.' attrName)* IMPORT
               (fromName (',' fromName)* | '(' fromName (',' fromName)* ','? ')')   # fromImport
             ;
fromName     : attrName (AS alias=name)? ;
// `return a, b` returns the tuple (a, b), as Python's (a trailing comma makes a one-tuple).
returnStmt   : RETURN (expr (',' expr)* trailing=','?)? ;
breakStmt    : BREAK ;
continueStmt : CONTINUE ;
assertStmt   : ASSERT expr (',' expr)? ;
// `raise X from Y`: `from` is a soft keyword here only (the builder checks the name's text).
raiseStmt    : RAISE (value=expr (from=NAME cause=expr)?)? ;
passStmt     : PASS ;
// Python's `del a, b[i], c.x` (the builder checks that each target can be deleted).
delStmt      : DEL expr (',' expr)* ','? ;
// Python's `global x, y` / `nonlocal x`: amps already assigns to the declared outer variable, so these only check
// that one exists (docs/language.md §7.4).
scopeStmt    : kw=(GLOBAL | NONLOCAL) name (',' name)* ;

// --------------------------------------------------------------- expressions
expr         : orExpr (IF orExpr ELSE expr)?            # ternary
             | FN '(' params? ')' ('->' result=expr)? block   # lambda
             | LAMBDA params? ':' expr                  # pyLambda
             ;
// The `for ... in ... if ...` clauses of a comprehension or generator expression (after its element), Python's
// nesting: `[x for row in m if row for x in row]`.
compFor      : compClause+ ;
compClause   : FOR targets IN orExpr (IF orExpr)* ;
// An item of a tuple, list or set display: `*xs` splices an iterable in (Python's starred item).
starItem     : '*' bitOr | expr ;
orExpr       : andExpr (OR andExpr)* ;
andExpr      : notExpr (AND notExpr)* ;
notExpr      : NOT notExpr                               # notOp
             | comparison                                # notPass
             ;
comparison   : bitOr (compOp bitOr)* ;
compOp       : '==' | '!=' | '<' | '<=' | '>' | '>=' | IN | NOT IN | IS | IS NOT ;
// Python's bitwise operators between comparisons and `+ -`: `|` lowest, then `^`, `&`, shifts (tensor masks:
// `(x > 0) & (x < 1)`).
bitOr        : bitOr '|' bitXor | bitXor ;
bitXor       : bitXor '^' bitAnd | bitAnd ;
bitAnd       : bitAnd '&' shift | shift ;
shift        : shift op=('<<' | '>>') arith | arith ;
arith        : arith op=('+' | '-') term | term ;
term         : term op=('*' | '/' | '//' | '%' | '@') unary | unary ;
unary        : op=('-' | '+' | '~') unary | power ;
power        : postfix ('**' unary)? ;

postfix      : atom                                      # atomPostfix
             | postfix '(' args? ')'                     # call
             | postfix '[' subscripts ']'                # index
             | postfix '.' attrName                      # attribute
             ;
// `f(x for x in xs)`: a generator expression as the sole argument (the builder rejects it after other arguments).
args         : arg (compFor | (',' arg)* ','?) ;
arg          : attrName '=' expr          # kwArg
             | '*' expr                   # splatArg
             | '**' expr                  # kwSplatArg
             | expr                       # posArg
             ;
subscripts   : subscript (',' subscript)* ','? ;
subscript    : lo=expr? ':' hi=expr? (':' step=expr?)?  # sliceSub
             | expr                                      # exprSub
             | '...'                                     # ellipsisSub
             ;

atom
  : SCALE '(' expr ')'                                        # scaleExpr
  | INT                                                       # intLit
  | FLOAT                                                     # floatLit
  // Adjacent literals concatenate, as Python's (`"a" 'b' f"{c}"`); a docstring is such an expression statement.
  | (STRING | FSTRING)+                                       # strLit
  | TRUE                                                      # trueLit
  | FALSE                                                     # falseLit
  | NONE                                                      # noneLit
  | name                                                      # nameRef
  // `super.x`, and Python's `super().x` / `super(Cls, self).x` (the builder checks the names; `__init__` is `init`).
  | SUPER ('(' (supCls=name ',' supSelf=name)? ')')? '.' attrName   # superRef
  // The grad-mode and autocast keywords as values: `no_grad()`, `autocast("cpu")`, `set_grad_enabled(false)`
  // (the builtins of those names); the statement forms are told apart by the token after the keyword.
  | kw=(NO_GRAD | ENABLE_GRAD | SET_GRAD_ENABLED | AUTOCAST)   # keywordRef
  // `()`, `(e)`, `(e,)`, `(e, f, ...)`; `[e, ...]` or `[e for p in xs if c]`: one alternative per bracket, told
  // apart by the builder, so that the parser decides on the bracket alone (alternatives that differ only after
  // a whole expression cost a lookahead scan of it at every bracket).
  // `(e for p in xs)` is a generator expression, `{k: v for ...}` / `{e for ...}` dict and set comprehensions,
  // `{a, b}` a set; the builder tells them apart (and rejects a starred item where Python does).
  | '(' (starItem (compFor | (',' starItem)* trailing=','?))? ')'   # parenOrTuple
  | '[' (starItem (compFor | (',' starItem)* ','?))? ']'            # listLit
  | '{' NEWLINE* (dictEntry (NEWLINE* compFor | (NEWLINE* ',' NEWLINE* dictEntry)* NEWLINE* ','?))? NEWLINE* '}'  # dictLit
  ;
// `k: v`, `**d` (a dict display), `e` or `*xs` (a set display).
dictEntry    : dstar='**' bitOr | star='*' bitOr | key=expr (':' value=expr)? ;

// `scale` is a soft keyword: `scale(x)` is always the scale expression (the atom rule tries it
// first), while a bare `scale` can name a variable or parameter (`fn step(self, scale=none)`).
name         : NAME | SCALE ;
// Soft keywords may name attributes, methods and keyword arguments (`scaler.scale(loss)`).
attrName     : NAME | SCALE | AUTOCAST | NO_GRAD | ENABLE_GRAD | SET_GRAD_ENABLED ;

// ------------------------------------------------------------------- lexer
LET: 'let'; FN: 'fn'; CLASS: 'class'; IF: 'if'; ELSE: 'else'; WHILE: 'while'; FOR: 'for';
IN: 'in'; TRY: 'try'; CATCH: 'catch'; EXCEPT: 'except'; FINALLY: 'finally'; AUTOCAST: 'autocast';
NO_GRAD: 'no_grad'; ENABLE_GRAD: 'enable_grad'; SET_GRAD_ENABLED: 'set_grad_enabled';
IMPORT: 'import'; AS: 'as'; WITH: 'with'; RETURN: 'return'; BREAK: 'break';
CONTINUE: 'continue'; ASSERT: 'assert'; RAISE: 'raise'; PASS: 'pass'; DEL: 'del'; OR: 'or';
AND: 'and'; NOT: 'not'; IS: 'is'; TRUE: 'true'; FALSE: 'false'; NONE: 'none';
SUPER: 'super'; SCALE: 'scale'; LAMBDA: 'lambda'; GLOBAL: 'global'; NONLOCAL: 'nonlocal';

FLOAT   : DIGITS '.' DIGITS? EXPONENT? | DIGITS EXPONENT | '.' DIGITS EXPONENT? ;
INT     : DIGITS | '0' [xX] [0-9a-fA-F_]+ ;
// Python's string forms: an optional raw prefix (r"..."), one or three quotes of either kind; a triple-quoted
// body may span lines.
FSTRING : ([fF] [rR]? | [rR] [fF]) STRBODY ;
STRING  : [rR]? STRBODY ;
NAME    : [a-zA-Z_] [a-zA-Z_0-9]* ;
NEWLINE : '\r'? '\n' ;
WS      : [ \t\f]+ -> channel(HIDDEN) ;
LINE_CONT : '\\' '\r'? '\n' -> channel(HIDDEN) ;
COMMENT : '#' ~[\r\n]* -> channel(HIDDEN) ;
ERRCHAR : . ;

fragment DIGITS   : [0-9] [0-9_]* ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;
fragment ESC      : '\\' . ;
fragment STRBODY  : '"""' (ESC | ~'\\')*? '"""' | '\'\'\'' (ESC | ~'\\')*? '\'\'\''
                  | '"' (ESC | ~["\\\r\n])* '"' | '\'' (ESC | ~['\\\r\n])* '\'' ;
