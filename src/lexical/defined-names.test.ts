import { describe, expect, it } from 'vitest';
import { definedNames, signatureDefinedNames } from './defined-names.js';

describe('definedNames', () => {
  it('reads the API an entry defines from its signature heading and its qualified anchor', () => {
    expect(definedNames({ headingPath: ['os.path', 'os.path.join(path, *paths)'], anchor: 'os.path.join' })).toEqual(['os.path.join']);
    expect(definedNames({ headingPath: ['Built-in Types', 'class dict(**kwargs)', 'items()'], anchor: 'dict.items' })).toEqual(['dict.items', 'items']);
    expect(definedNames({ headingPath: ['datetime', 'classmethod datetime.now(tz=None)'], anchor: 'datetime.datetime.now' })).toEqual(['datetime.datetime.now', 'datetime.now']);
    expect(definedNames({ headingPath: ['fs', 'fs.readFile(path[, options], callback)'], anchor: 'fsreadfilepath-options-callback' })).toEqual(['fs.readFile']);
  });

  it('reads every name of an entry documented under several (its signatures joined by "; ")', () => {
    expect(definedNames({ headingPath: ['operator', 'operator.xor(a, b); operator.__xor__(a, b)'], anchor: 'operator.xor' })).toEqual(['operator.xor', 'operator.__xor__']);
    expect(definedNames({ headingPath: ['re', 're.I; re.IGNORECASE'], anchor: 're.I' })).toEqual(['re.I', 're.IGNORECASE']);
    expect(definedNames({ headingPath: ['Guide', 'Install; then configure'], anchor: 'install' })).toEqual([]);
    expect(definedNames({ headingPath: ['dict', 'keys(); iterkeys()'], anchor: 'dict.keys' })).toEqual(['dict.keys', 'keys', 'iterkeys', 'dict.iterkeys']);
  });

  it("reads rustdoc's item kind before a name (`method.entry`) as a kind, not a namespace", () => {
    expect(definedNames({ headingPath: ['HashMap', 'pub fn entry(&mut self, key: K) -> Entry<K, V>'], anchor: 'method.entry' })).toEqual(['entry']);
    expect(definedNames({ headingPath: ['Range', 'start: Idx'], anchor: 'structfield.start' })).toEqual(['start']);
  });

  it('never splits a signature at a semicolon inside brackets (Rust arrays)', () => {
    expect(definedNames({ headingPath: ['Vec', 'fn from(arr: [T; N]) -> Vec<T>'], anchor: 'method.from' })).toEqual(definedNames({ headingPath: ['Vec', 'fn from(arr: [T, N]) -> Vec<T>'], anchor: 'method.from' }));
    expect(definedNames({ headingPath: ['Vec', 'Vec::from(arr: [T; N])'], anchor: 'vec-from' })).toEqual(['Vec::from']);
  });

  it('finds no API in a prose heading', () => {
    expect(definedNames({ headingPath: ['Built-in Functions'], anchor: 'built-in-functions' })).toEqual([]);
    expect(definedNames({ headingPath: ['Introduction'], anchor: 'introduction' })).toEqual([]);
    expect(definedNames({ headingPath: ['datetime', 'date Objects'], anchor: 'date-objects' })).toEqual([]);
    expect(definedNames({ headingPath: ['Guide', 'Examples of Usage: date'], anchor: 'examples-of-usage-date' })).toEqual([]);
  });

  it('reads a heading of one capitalised word as a title even when its id repeats it, and a declared name as a name', () => {
    expect(definedNames({ headingPath: ['Terms Used to Describe Directives', 'Syntax'], anchor: 'Syntax' })).toEqual([]);
    expect(definedNames({ headingPath: ['json', 'type Decoder'], anchor: 'Decoder' })).toEqual(['Decoder']);
    expect(definedNames({ headingPath: ['Constants', 'NotImplemented'], anchor: 'NotImplemented' })).toEqual(['NotImplemented']);
    expect(definedNames({ headingPath: ['Constants', 'NULL'], anchor: 'NULL' })).toEqual(['NULL']);
  });
  it.each([
    // qdoc (C++): bracketed qualifiers, capitalised and qualified return types, `*` and `&`, trailing `const`.
    ['[static] void QTimer::singleShot(int msec, const QObject *receiver, const char *member)', 'QTimer::singleShot'],
    ["QString QString::arg(const QString &a, int fieldWidth = 0, QChar fillChar = QLatin1Char(' ')) const", 'QString::arg'],
    ['[slot] void QObject::deleteLater()', 'QObject::deleteLater'],
    ['[signal] void QTimer::timeout()', 'QTimer::timeout'],
    ['[override virtual] bool QFile::open(QIODevice::OpenMode mode)', 'QFile::open'],
    ['qint64 QElapsedTimer::elapsed() const', 'QElapsedTimer::elapsed'],
    ['bool QPointer::isNull() const', 'QPointer::isNull'],
    ['template <typename T> T QObject::findChild(const QString &name = QString(), Qt::FindChildOptions options = Qt::FindChildrenRecursively) const', 'QObject::findChild'],
    ['const char *QObject::tr(const char *sourceText, const char *disambiguation = nullptr, int n = -1)', 'QObject::tr'],
    ['QList<T> QObject::findChildren(const QString &name = QString()) const', 'QObject::findChildren'],
    ['QMap<Key, T>::iterator QMap::find(const Key &key)', 'QMap::find'],
    ['::QByteArray QMetaType::name() const', 'QMetaType::name'],
    ['QObject::QObject(QObject *parent = nullptr)', 'QObject::QObject'],
    ['QObject::~QObject()', 'QObject::~QObject'],
    ['[virtual] QObject::~QObject()', 'QObject::~QObject'],
    ['QString &QString::append(const QString &str)', 'QString::append'],
    ['bool operator==(const QSize &s1, const QSize &s2)', 'operator=='],
    ['bool QString::operator==(const char *other) const', 'QString::operator=='],
    ['template <typename T> QDebug operator<<(QDebug debug, const QSharedPointer<T> &ptr)', 'operator<<'],
    ['QtMessageHandler qInstallMessageHandler(QtMessageHandler handler)', 'qInstallMessageHandler'],
    ['enum Qt::AlignmentFlag', 'Qt::AlignmentFlag'],
    ['flags Qt::Alignment', 'Qt::Alignment'],
    ['QByteArray FromBase64Result::decoded', 'FromBase64Result::decoded'],
    ['[alias] QLatin1String::const_iterator', 'QLatin1String::const_iterator'],
    // C (Doxygen, Sphinx's C domain), C++ qualifiers, Java.
    ['PyObject *PyType_FromSpec(PyType_Spec *spec)', 'PyType_FromSpec'],
    ['PyStatus PyConfig_Read(PyConfig *config)', 'PyConfig_Read'],
    ['unsigned long long strtoull(const char *nptr, char **endptr, int base)', 'strtoull'],
    ['virtual void Widget::paint(Painter &painter) const override', 'Widget::paint'],
    ['virtual int Shape::area() const = 0', 'Shape::area'],
    ['Widget &Widget::operator=(const Widget &other) noexcept', 'Widget::operator='],
    ['public static boolean isBlank(CharSequence cs)', 'isBlank'],
    ['public static <T> T defaultIfNull(T object, T defaultValue)', 'defaultIfNull'],
    ['public void write(byte[] b) throws IOException', 'write'],
    ['@Deprecated public static String join(Object[] array)', 'join'],
  ])('reads the name a C++ or Java declaration defines: %s', (heading, name) => {
    expect(definedNames({ headingPath: ['Page', heading], anchor: 'some-anchor' })).toEqual([name]);
  });

  it('reads each declaration of a heading that joins them (qdoc: an enum and its flags)', () => {
    expect(definedNames({ headingPath: ['Qt', 'enum Qt::AlignmentFlag flags Qt::Alignment'], anchor: 'AlignmentFlag-enum' })).toEqual(['Qt::AlignmentFlag', 'Qt::Alignment']);
  });

  it("reads Javadoc's anchor of a method's name and its parameter types as naming the method of its heading", () => {
    expect(definedNames({ headingPath: ['Class StringUtils', 'Method Details', 'isBlank'], anchor: 'isBlank(java.lang.CharSequence)' })).toEqual(['isBlank']);
    expect(definedNames({ headingPath: ['Class MutableLong', 'Method Details', 'increment'], anchor: 'increment()' })).toEqual(['increment']);
    expect(definedNames({ headingPath: ['Class StringUtils', 'Method Summary'], anchor: 'method-summary' })).toEqual([]);
  });

  it.each([
    'Use a VecDeque when',
    'How to write a fixture',
    'Installing Python modules (Legacy version)',
    'Installing Python Modules (Legacy version)',
    'Using GitHub (enterprise)',
    'JavaScript modules (Legacy version)',
    'Integer types (int, long)',
    'Passing pointers (or: passing parameters by reference)',
    'Replacing os.system()',
    'Simulating scanf()',
    'Using pytest.warns(None)',
    'Using private APIs (unsupported)',
    'Porting from QRegExp::exactMatch()',
    'The main() Function',
    'Using canConvert() and convert() Consecutively',
    'Daylight-Saving Time (DST)',
    'Resource Collection Files (.qrc)',
    'Data Compression Library (zlib), version 1.2.11',
    'edit_uri flexibility (#2927)',
    'Using std::vector',
    'Install GitHub Desktop (Windows)',
    'Changes in version 2.0 (2020-01-01)',
    'Calling open() on a file',
    'Drag & Drop (HTML5)',
    'Copy & Paste (clipboard)',
    'Tips * Tricks (advanced)',
    '[draft] Design Notes (internal)',
    '[beta] New Feature (preview)',
    'Default Arguments (x = 0)',
    'Glob Patterns (*.txt)',
    'Smart Pointers (unique_ptr<T>)',
  ])('finds no API in a prose heading, parentheses and all: %s', (heading) => {
    expect(definedNames({ headingPath: ['Guide', heading], anchor: 'some-section' })).toEqual([]);
  });

  it('names a C++ or Java declaration for search, but not as an entry whose links the link prior counts', () => {
    const member = { headingPath: ['QTimer Class', '[static] void QTimer::singleShot(int msec, const QObject *receiver, const char *member)'], anchor: 'singleShot' };
    const javadoc = { headingPath: ['Class StringUtils', 'Method Details', 'isBlank'], anchor: 'isBlank(java.lang.CharSequence)' };
    expect(definedNames(member)).toEqual(['QTimer::singleShot']);
    expect(definedNames(javadoc)).toEqual(['isBlank']);
    expect(signatureDefinedNames(member)).toEqual([]);
    expect(signatureDefinedNames(javadoc)).toEqual([]);
    expect(signatureDefinedNames({ headingPath: ['os.path', 'os.path.join(path, *paths)'], anchor: 'os.path.join' })).toEqual(['os.path.join']);
  });

  it.each([
    ["jsonNoDup' :: Parser Value", 'v:jsonNoDup-39-', "jsonNoDup'"],
    ['eitherDecode :: FromJSON a => ByteString -> Either String a', 'v:eitherDecode', 'eitherDecode'],
    ['data Value', 't:Value', 'Value'],
    ['class ToJSON a where', 't:ToJSON', 'ToJSON'],
    ['(.=) :: (KeyValue kv, ToJSON v) => Key -> v -> kv', 'v:.-61-', '.='],
  ])("reads the name a Haddock declaration's anchor spells: %s", (heading, anchor, name) => {
    expect(definedNames({ headingPath: ['Data.Aeson', heading], anchor })).toEqual([name]);
    expect(signatureDefinedNames({ headingPath: ['Data.Aeson', heading], anchor })).toEqual([]);
  });

  it("finds no name where a Haddock anchor names a section or another declaration than the heading's", () => {
    expect(definedNames({ headingPath: ['Data.Aeson', 'Decoding and encoding'], anchor: 'g:5' })).toEqual([]);
    expect(definedNames({ headingPath: ['Data.Aeson', 'decodeStrict :: FromJSON a => ByteString -> Maybe a'], anchor: 'v:decode' })).toEqual([]);
  });

  it('reads a heading with a long run of marks after its brackets without backtracking through every way to split it', () => {
    // `&&` can be read as one mark or two: 200 of them have more splits than a test could try.
    expect(definedNames({ headingPath: ['Page', `void f() ${'&'.repeat(200)}x`], anchor: 'f' })).toEqual([]);
    expect(definedNames({ headingPath: ['Page', `void f() ${'&& '.repeat(100)}`], anchor: 'f' })).toEqual(['f']);
  });
});

