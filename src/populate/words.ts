// The material `parlance populate` writes with: a vocabulary ranked by frequency (common words of team chat,
// then made-up words for the long tail), people's names and channel names.

const COMMON = (
  'the to and a we is it for i on this that you in be with can should of will not so are have just' +
  ' deploy build release review test server issue fix update meeting team customer branch merge ticket' +
  ' today tomorrow week thanks please check looks good idea plan design data bug error log config' +
  ' staging production database query index cache latency memory service client api endpoint request' +
  ' response timeout retry queue worker job schedule backup restore migration schema table column' +
  ' roadmap sprint estimate priority blocker owner draft document spec proposal feedback question answer' +
  ' demo slides call agenda notes summary decision follow action item status report metric dashboard' +
  ' alert incident outage rollback hotfix patch version tag pipeline runner docker image cluster node' +
  ' network proxy certificate domain email login password token session permission role group channel' +
  ' topic message thread reply reaction emoji link file upload screenshot video audio mobile desktop' +
  ' browser android ios linux windows laptop keyboard monitor office remote travel holiday lunch coffee' +
  ' budget invoice contract vendor partner launch campaign website blog newsletter survey interview' +
  ' hiring onboarding training workshop conference talk paper research experiment result benchmark' +
  ' performance profile trace flame graph cpu disk network bandwidth throughput scale shard replica' +
  ' leader follower consensus lock transaction commit rollback snapshot stream event handler callback' +
  ' promise async await function method class module package library framework compiler runtime' +
  ' typescript python rust golang java kotlin swift sql postgres sqlite redis kafka nginx kubernetes' +
  ' terraform ansible grafana prometheus sentry jira github gitlab wiki calendar reminder deadline' +
  ' friday monday morning afternoon evening weekend quarter month year goal milestone target launch'
).split(' ');

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'fen', 'gal', 'hum', 'jex', 'bri', 'cov', 'wen', 'yas'];

const REAL_WORDS = [...new Set(COMMON)];
export const REAL_WORD_COUNT = REAL_WORDS.length;

// 5,000 distinct words, most frequent first: the real ones, then made-up ones.
export const VOCABULARY: readonly string[] = (() => {
  const words = [...REAL_WORDS];
  const seen = new Set(words);
  for (let i = 0; words.length < 5000; i++) {
    const w = SYLLABLES[i % 20] + SYLLABLES[Math.floor(i / 20) % 20] + SYLLABLES[Math.floor(i / 400) % 20];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
})();

export const FIRST_NAMES = (
  'Ada Alan Alice Amara Anton Aria Beatrix Boris Carmen Chen Clara Dario Dmitri Elena Emeka Esther Farah Felix Greta' +
  ' Hana Hugo Ines Ivan Jamal Jana Kai Keiko Lars Leila Lucia Malik Maria Mateo Mei Nadia Nikolai Noor Olga Omar' +
  ' Pablo Priya Quentin Rafael Rosa Sami Sofia Tariq Thea Umar Vera Viktor Wen Xavier Yara Yusuf Zara Zoltan Ingrid Ravi Lena'
).split(' ');

export const LAST_NAMES = (
  'Abara Baker Castro Dubois Eriksen Fischer Garcia Haddad Ibrahim Jensen Kowalski Lindqvist Moreau Nakamura Okafor' +
  ' Petrov Quinn Rossi Schmidt Tanaka Ueda Varga Weber Xu Yilmaz Zhang Alvarez Becker Costa Dimitrov Evans Ferrari' +
  ' Gomez Horvath Ivanova Jovanovic Kim Lopez Martin Novak Olsen Popescu Qureshi Romero Silva Torres Usman Vogel' +
  ' Wagner Yamamoto Zimmermann Almeida Bauer Chopra Diaz Engel Fontaine Gupta Hansen Ito'
).split(' ');

export const CHANNEL_NAMES = (
  'general engineering announcements random design product support sales marketing operations infrastructure' +
  ' backend frontend mobile data security releases incidents hiring social feedback documentation qa devops' +
  ' research finance legal partnerships community events platform api performance database analytics growth' +
  ' onboarding office-paris office-tokyo office-lagos customer-success billing integrations accessibility' +
  ' localization ux-research brand content website mobile-android mobile-ios desktop ci builds'
).split(' ');

export const DOMAINS = ['github.com', 'docs.example.com', 'wiki.example.org', 'grafana.example.net', 'en.wikipedia.org', 'stackoverflow.com'];
export const IMAGE_NAMES = ['screenshot', 'diagram', 'chart', 'mockup', 'photo', 'whiteboard'];
export const FILE_NAMES = ['report.pdf', 'notes.txt', 'budget.xlsx', 'slides.pdf', 'trace.json', 'design.fig'];
export const EMOJI = [':thumbs_up:', ':tada:', ':smile:', ':eyes:', ':rocket:', ':+1:', ':heart:', ':fire:'];
export const LANGUAGES = ['python', 'js', 'ts', 'sql', 'bash', 'rust', ''];
