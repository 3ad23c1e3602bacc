import { splitSignatures } from '../core/signatures.js';
import type { Chunk } from '../core/types.js';

/** Words a signature heading may start with before the name: `class dict(**kwargs)`, `async def`, `static`. */
const SIGNATURE = /^(?:[a-z]+\s+)*?([\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::|#)[\p{L}_$][\p{L}\p{N}_$]*)*)\s*(\(.*\)|\[.*\])?\s*(?:(?:->|:|=).*)?$/u;
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/**
 * The API a chunk defines: the name in its deepest heading when that heading is a signature
 * (`os.path.join(path, *paths)`, `class dict(**kwargs)`, `datetime.min`), the anchor when it is
 * the qualified name of that API (Sphinx's `<dt id="dict.items">`), and the name a C++ or Java
 * declaration heading declares (`bool QPointer::isNull() const`, Javadoc's `isBlank` under its
 * anchor `isBlank(java.lang.CharSequence)`). The index searches these as identifiers.
 */
export function definedNames(chunk: Pick<Chunk, 'headingPath' | 'anchor'>): string[] {
  return namesDefined(chunk, namesOf);
}

/**
 * The names of `definedNames` read from a signature alone, without the C++ and Java
 * declarations: the entries whose links the link prior counts. qdoc and Javadoc link every
 * member from each subclass's list of all members, so a declared member's links count its
 * class's subclasses, not how much it is used (measured: `QObject::metaObject` took 55 of its
 * 64 links so, and qdoc's page hit@5 fell from 1.000 to 0.750 with them counted).
 */
export function signatureDefinedNames(chunk: Pick<Chunk, 'headingPath' | 'anchor'>): string[] {
  return namesDefined(chunk, (heading, anchor) => signatureNames(heading, anchor, false));
}

function namesDefined(chunk: Pick<Chunk, 'headingPath' | 'anchor'>, read: (heading: string, anchor: string | undefined) => string[]): string[] {
  const heading = chunk.headingPath.at(-1)?.trim();
  if (heading === undefined) return [];
  // One entry under several names (`operator.lt(a, b); operator.__lt__(a, b)`): each is defined
  // here, a member's with the first name's namespace (`dict.keys; iterkeys()` → dict.iterkeys).
  const [first, ...others] = splitSignatures(heading);
  const names = read(first ?? heading, chunk.anchor);
  const anchor = chunk.anchor ?? '';
  const namespace = IDENTIFIER.test(anchor) ? /^(.+(?:\.|::))[^.:]+$/u.exec(anchor)?.[1] : undefined;
  for (const other of others) {
    for (const name of read(other, undefined)) {
      names.push(name);
      if (namespace !== undefined && !/[.:]/.test(name)) names.push(`${namespace}${name}`);
    }
  }
  return [...new Set(names)];
}

function namesOf(heading: string, anchor: string | undefined): string[] {
  const haddock = haddockNames(heading, anchor);
  if (haddock.length > 0) return haddock;
  const names = signatureNames(heading, anchor);
  // A C++ or Java declaration (`bool QPointer::isNull() const`, `QString &QString::append(…)`),
  // or the whole of a name the signature above reads a part of (`QObject::~QObject()` read as
  // `QObject` and the rest as a type; `bool QString::operator==(…)` as `QString::operator`).
  const declared = heading.length > MAX_DECLARATION ? undefined : declaredName(heading);
  if (declared === undefined) return names.length > 0 || heading.length > MAX_DECLARATION ? names : declarationNames(heading);
  const read = names.at(-1);
  if (read === undefined) return [declared];
  return declared.length > read.length && declared.startsWith(read) ? [declared] : names;
}

/** The name a signature heading defines; `parameterAnchors`: also a bare name under Javadoc's anchor of it with its parameter types. */
function signatureNames(heading: string, anchor: string | undefined, parameterAnchors = true): string[] {
  const match = SIGNATURE.exec(heading);
  const name = match?.[1];
  if (name === undefined) return [];
  const anchorNames = anchor !== undefined && IDENTIFIER.test(anchor) && (anchor === name || anchor.endsWith(`.${name}`) || anchor.endsWith(`::${name}`)) && !isTitleWord(heading, name);
  const looksLikeCode = match?.[2] !== undefined || /[.:#_]/.test(name) || anchorNames || (parameterAnchors && isParameterListOf(anchor, name));
  if (!looksLikeCode) return [];
  return anchorNames && anchor !== name && !ITEM_KIND.test(anchor as string) ? [anchor as string, name] : [name];
}

const QUALIFIED = String.raw`[\p{L}_$][\p{L}\p{N}_$]*(?:::[\p{L}_$][\p{L}\p{N}_$]*)+`;
/** Declarations one heading joins, each a keyword and a qualified name: qdoc's `enum Qt::AlignmentFlag flags Qt::Alignment`. */
const DECLARATIONS = new RegExp(String.raw`^[a-z]+\s+(?:[a-z]+\s+)?${QUALIFIED}(?:\s+[a-z]+\s+(?:[a-z]+\s+)?${QUALIFIED})+$`, 'u');

function declarationNames(heading: string): string[] {
  if (!DECLARATIONS.test(heading) || !KEYWORDS.has(firstWord(heading))) return [];
  return [...heading.matchAll(new RegExp(QUALIFIED, 'gu'))].map((match) => match[0]);
}

/** Haddock's anchor of a value or a type (`v:eitherDecode-39-` for `eitherDecode'`: other characters as their codes). */
const HADDOCK_ANCHOR = /^[vt]:(.+)$/;
/** Keywords a Haddock declaration may open with before its name. */
const HADDOCK_KEYWORD = /^(?:(?:data|newtype|type|class|pattern|family)\s+)+/;

/**
 * A Haskell declaration (`eitherDecode' :: FromJSON a => …`, `data Value`, `(.=) :: …`) names
 * itself in its anchor: the heading declares the name its `v:` or `t:` anchor spells.
 */
function haddockNames(heading: string, anchor: string | undefined): string[] {
  const encoded = anchor === undefined ? undefined : HADDOCK_ANCHOR.exec(anchor)?.[1];
  if (encoded === undefined) return [];
  const name = encoded.replace(/-(\d+)-/g, (_whole, code: string) => String.fromCharCode(Number(code)));
  const declared = heading.replace(HADDOCK_KEYWORD, '').replace(/^\(\s*/, '');
  return declared.startsWith(name) && /^(?:$|[\s)]|::)/.test(declared.slice(name.length)) ? [name] : [];
}

/**
 * Javadoc's anchors are a method's name with its parameter types (`isBlank(java.lang.CharSequence)`)
 * under a heading of the bare name: the anchor says the heading names a method.
 */
function isParameterListOf(anchor: string | undefined, name: string): boolean {
  return anchor !== undefined && anchor.startsWith(`${name}(`) && anchor.endsWith(')') && !isTitleWord(name, name);
}

/** A name in a C-family declaration: `~QObject`, `QString::arg`, `Vector<T>::size` (template arguments are read past). */
const DECLARED_NAME = /^(?:::)?~?[\p{L}_$][\p{L}\p{N}_$]*(?:<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>)?(?:(?:::|\.)~?[\p{L}_$][\p{L}\p{N}_$]*(?:<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>)?)*/u;
/** qdoc's qualifiers in brackets before a declaration: `[static]`, `[override virtual protected]`, `[since 5.10]`. */
const QDOC_TAGS = /^(?:\[(?:(?:static|virtual|override|pure|protected|private|public|signal|slot|alias|deprecated|invokable|constexpr|explicit|since [\d.]+)[ ,]*)+\]\s*)+/u;
/** Longer than any declaration: a heading past it is read as a signature only (the declaration reader's cost grows with its length). */
const MAX_DECLARATION = 1000;
/** What a C++ or Java declaration may end with after its parameters: `const`, `noexcept`, `= 0`, `throws IOException`. */
const TRAILING = /^(?:\s*(?:const|volatile|&&?(?!&)|noexcept(?:\([^()]*\))?|throw\([^()]*\)|override|final|=\s*(?:0|default|delete)|\[[a-z][\w ,.-]*\]))*\s*(?:(?:->|throws\s).*)?$/u;
/** Keywords a declaration's type may be made of, or preceded by; none is an English word a title would put there. */
const KEYWORDS = new Set([
  'abstract', 'auto', 'bool', 'boolean', 'byte', 'char', 'class', 'const', 'consteval', 'constexpr', 'constinit', 'double', 'enum', 'explicit', 'extern', 'final', 'float', 'friend',
  'inline', 'int', 'long', 'mutable', 'native', 'private', 'protected', 'public', 'register', 'short', 'signed', 'static', 'struct', 'synchronized', 'transient', 'typename',
  'union', 'unsigned', 'virtual', 'void', 'volatile',
]);

/**
 * The name a C++ or Java declaration defines (Qt's `[static] void QTimer::singleShot(int msec, …)`,
 * `QString &QString::append(const QString &str)`, `QObject::~QObject()`, `template <typename T> T
 * QObject::findChild(…) const`, Javadoc's `public static boolean isBlank(CharSequence cs)`): its
 * qualifiers in brackets and its template parameters, a return type of one name (qualified,
 * templated, with `*` and `&`) or of keywords (`unsigned long`), the name, its parameters and
 * what may follow them (`const`, `= 0`, `throws X`). A title has that shape too ("Installing
 * Python modules (Legacy version)", "Using GitHub (enterprise)"): the declaration must also show
 * it is code: by its qualifiers in brackets or template parameters, its type (a keyword, `*`,
 * `&`, template arguments, `::`, `_`, a digit), its parameters (with any of those, or `int
 * msec`), what follows them, or else its name (`::`, `_`, `~`, an operator) after a type no
 * sentence starts with. Two words before the name are no type ("Installing Python modules (…)").
 */
function declaredName(heading: string): string | undefined {
  let rest = heading.trim();
  let marked = false;
  // qdoc's `[static]`, `[slot]`, `[override virtual]`: its own words only ("[draft] Design
  // notes (internal)" is a title).
  const tags = QDOC_TAGS.exec(rest);
  if (tags !== null) [rest, marked] = [rest.slice(tags[0].length), true];
  if (/^template\s*</u.test(rest)) {
    const end = closing(rest, rest.indexOf('<'), '<', '>');
    if (end < 0) return undefined;
    [rest, marked] = [rest.slice(end + 1).trimStart(), true];
  }
  const declarator = splitDeclarator(rest);
  if (declarator === undefined) return undefined;
  const { type, name, parameters, trailing } = declarator;
  // A mark with spaces on both sides joins words ("Drag & Drop (HTML5)"); a type's `&` and `*`
  // stand against the name (`QString &QString::append`).
  if (!marked && /\s[&*]+\s+$/u.test(type)) return undefined;
  const typeWords = typeOf(type);
  if (typeWords === undefined) return undefined;
  const codeName = /[.:_~]|\boperator\b/u.test(name);
  // A type of one word a sentence may start with ("Replacing os.system()", "Using std::vector"),
  // unlike `PyStatus`, `QByteArray`, `T`.
  const wordType = type.trim() === '' || /^\p{Lu}?\p{Ll}+$/u.test(type.trim());
  if (parameters === undefined) {
    // A member variable (`QByteArray FromBase64Result::decoded`) or an alias (`[alias]
    // QLatin1String::const_iterator`): a qualified name, and a type or qualifiers that are code.
    return name.includes('::') && (typeWords.code || marked || !wordType) ? name : undefined;
  }
  if (!TRAILING.test(trailing) || /[#;?!]/u.test(parameters)) return undefined;
  // Parameters are code when they have code's marks, or when one is a keyword with a name
  // (`int msec`): a title's words in brackets ("(int, long)", "(or: by reference)") are not.
  const codeParameters = /[*&<>=[\]]|::/u.test(parameters) || parameters.split(',').some((parameter) => /^\s*[a-z]+\s+[\p{L}_$]/u.test(parameter) && KEYWORDS.has(firstWord(parameter)));
  const qualified = /^\s*(?:const|volatile|&|noexcept|throw\(|override|final|=)/u.test(trailing);
  if (marked || typeWords.code || qualified) return name;
  // Code in the brackets of two plain words is a title's example ("Default Arguments (x = 0)",
  // "Glob Patterns (*.txt)").
  const titleWords = wordType && !KEYWORDS.has(type.trim()) && /^\p{Lu}?\p{Ll}+$/u.test(name);
  if (codeParameters && !titleWords) return name;
  // Otherwise the name must be code (`::`, `.`, `_`, `~`, an operator, or a word run into a
  // capital: `qInstallMessageHandler`) after a type no sentence starts with (`PyStatus
  // PyConfig_Read(…)`, `QtMessageHandler qInstallMessageHandler(…)`), or alone with a mark of
  // code (`QObject::~QObject()`).
  if (type.trim() === '') return /[:_~]|\boperator\b/u.test(name) ? name : undefined;
  return (codeName || /^\p{Ll}+\p{Lu}/u.test(name)) && !wordType ? name : undefined;
}

/** A declaration cut at its name: the type before it, its parameters (undefined: none) and what follows them. */
function splitDeclarator(text: string): { type: string; name: string; parameters: string | undefined; trailing: string } | undefined {
  const operator = /(?:^|[\s*&]|::)operator\b/u.exec(text);
  let nameEnd: number;
  let open: number;
  if (operator !== null) {
    // `operator==(…)`, `operator()(…)`, `operator const void *()`: the operator's own brackets belong to its name.
    const after = operator.index + operator[0].length;
    open = text.startsWith('()', after) ? text.indexOf('(', after + 2) : text.indexOf('(', after);
    if (open < 0) return undefined;
    nameEnd = open;
  } else {
    open = topLevel(text, '(');
    nameEnd = open < 0 ? text.length : open;
  }
  const head = text.slice(0, nameEnd).trimEnd();
  const start = nameStart(head, operator === null ? undefined : operator.index + operator[0].length - 'operator'.length);
  if (start === undefined) return undefined;
  const written = head.slice(start).replace(/\s+/gu, ' ');
  const name = operator === null ? written.replace(/<[^()]*?>(?=::|$)/gu, '') : written;
  const type = head.slice(0, start);
  if (open < 0) return { type, name, parameters: undefined, trailing: '' };
  const close = closing(text, open, '(', ')');
  if (close < 0) return undefined;
  return { type, name, parameters: text.slice(open + 1, close), trailing: text.slice(close + 1) };
}

/** Where the name ends `head` begins: after the type, at a space, `*` or `&` (`const char *QObject::tr`). */
function nameStart(head: string, operatorAt: number | undefined): number | undefined {
  if (operatorAt !== undefined) {
    // The qualification before `operator` (`QString::operator+=`) is the name's.
    const qualified = /(?:~?[\p{L}_$][\p{L}\p{N}_$]*(?:<[^<>()]*>)?::)*$/u.exec(head.slice(0, operatorAt));
    return operatorAt - (qualified?.[0].length ?? 0);
  }
  for (let start = 0; start < head.length; start += 1) {
    if (start > 0 && !/[\s*&]/u.test(head[start - 1] as string)) continue;
    const match = DECLARED_NAME.exec(head.slice(start));
    if (match !== null && start + match[0].length === head.length) return start;
  }
  return undefined;
}

/**
 * Whether a declaration's type is one: keywords and annotations (`public static`, `unsigned
 * long`, `@Deprecated`) and Java's type parameters (`<T>`), then one name at most (`QList<T>`,
 * `std::string`, `T`), then only `const`, `volatile`, `*` and `&`; and whether it shows it is
 * code (a keyword or any of those marks). Undefined: it is not a type ("Installing Python",
 * "Using private", where a word stands after the name).
 */
function typeOf(type: string): { code: boolean } | undefined {
  let rest = type.trim();
  let code = false;
  let declared = false;
  while (rest !== '') {
    let length: number;
    const mark = /^(?:\*|&&?|\[\])/u.exec(rest);
    const word = DECLARED_NAME.exec(rest)?.[0];
    if (mark !== null) [length, code, declared] = [mark[0].length, true, true];
    else if (!declared && rest.startsWith('<')) {
      // Java's type parameters after its modifiers (`public static <T> T max(…)`).
      length = closing(rest, 0, '<', '>') + 1;
      if (length === 0) return undefined;
      code = true;
    } else if (!declared && /^@[\p{L}_$]/u.test(rest)) [length, code] = [(/^@[\p{L}\p{N}_$.]+/u.exec(rest)?.[0] ?? '@').length, true];
    else if (word === undefined) return undefined;
    else if (declared ? CV.has(word) : KEYWORDS.has(word)) [length, code] = [word.length, true];
    else if (declared) return undefined;
    else {
      [length, declared] = [word.length, true];
      if (/[<:._\p{N}]/u.test(word)) code = true;
    }
    rest = rest.slice(length).trimStart();
  }
  return { code };
}

function firstWord(text: string): string {
  return /^\s*([\p{L}_$][\p{L}\p{N}_$]*)/u.exec(text)?.[1] ?? '';
}

/** What may follow a type's name in it (`QString const &`). */
const CV = new Set(['const', 'volatile']);

/** The first `char` outside brackets, or -1. */
function topLevel(text: string, char: string): number {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const at = text[index] as string;
    if (at === char && depth === 0) return index;
    if (at === '<' || at === '[') depth += 1;
    else if ((at === '>' || at === ']') && depth > 0) depth -= 1;
  }
  return -1;
}

/** The index of the bracket closing the one at `open`, or -1. */
function closing(text: string, open: number, left: string, right: string): number {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    if (text[index] === left) depth += 1;
    else if (text[index] === right && --depth === 0) return index;
  }
  return -1;
}

/** rustdoc's anchors name an item's kind before its name (`method.entry`, `structfield.len`): a kind, not a namespace. */
const ITEM_KIND = /^(?:method|tymethod|structfield|variant|associatedtype|associatedconstant|impl)\./;

/**
 * A heading that is one capitalised word and nothing else ("Syntax", "Description") is a
 * section's title, even when its id repeats it: Apache's directive dictionary heads its
 * sections so, and every directive's table links to them, so as API entries they took the
 * popularity of a template's links. A declared name keeps its keyword ("type Decoder").
 */
function isTitleWord(heading: string, name: string): boolean {
  return heading.trim() === name && /^\p{Lu}\p{Ll}+$/u.test(name);
}
