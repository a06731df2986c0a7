package terms

// The cues below are the words legal text uses for each topic, stance and
// subject, in English and in the Scandinavian languages (Norwegian Bokmål
// and Nynorsk, Danish and Swedish share most constructions). They are
// general vocabulary of terms of service and licences, not sentences of
// any one document: a cue names a concept ("automated means", "train a
// model", "without consent"), and the classifier combines them.

// Topics.
const (
	TopicScraping = "scraping" // robots, crawlers, scrapers, automated access or collection
	TopicAI       = "ai"       // AI training, text and data mining, building models from the content
	TopicLicence  = "licence"  // licences, reuse grants, copyright and copying rules
	TopicAPI      = "api"      // official APIs, feeds, exports, data dumps
)

// Stances.
const (
	Prohibits = "prohibits" // prohibits or reserves
	Permits   = "permits"   // permits or grants
	Describes = "describes" // only describes
)

// Subjects.
const (
	SubjectSite    = "site"    // the site's own content or service, as a reader would reuse it
	SubjectUser    = "user"    // the user's content, licensed to the service
	SubjectService = "service" // what the service itself does: its own AI, renewals, moderation
)

// scrapingCues name automated access and collection by themselves.
var scrapingCues = compile(
	"spider*", "crawler*", "crawling", "crawl", "crawled", "scrap*", "scrapp*", "data mine", "data mining", "data miner*", "datamin*",
	"harvest*", "offline reader*", "offline browser*", "trawl",
	"automated|automatic|automatically ~ access*|collect*|extract*|retriev*|download*|copy*|quer*|request*|use|usage|harvest*|gathering|reading",
	"non human", "nonhuman", "systematic|systematically ~ retriev*|collect*|extract*|download*|copy*|access*|gather*",
	"data gathering", "data extraction", "screen scrap*", "bulk download*", "mass download*",
	"large scale|mass|bulk|wholesale|systematic|systematically ~ copying|copy|copies|download*|retriev*|collect*|extract*|harvest*|reproduc*",
	"storskala|masse|massiv|systematisk* ~ kopiering|kopiere|nedlasting*|innsamling*|uttrekk*|nedladdning*|kopiering|indsamling*",
	// Scandinavian
	"edderkopp*", "edderkop*", "spindl*", "skrap*", "skrab*", "skrapa*", "datautvinning*", "datainnsamling*", "dataindsamling*", "datahøsting*", "innhøsting*", "høsting",
	"automati* ~ tilgang*|innsamling*|innhenting*|bruk|bruken|nedlast*|henting|spørring*|forespørsl*|åtkomst|insamling*|hämtning|indsamling",
	"systematisk* ~ hent*|innhent*|samle*|kopier*|last*|indsaml*|hämta*",
	"hent*|innhent*|samle* ~ systematisk*", "ikke menneskelig*", "ikkje menneskeleg*",
	"utvinningsverktøy*", "datainnsamlingsverktøy*",
	// the database right's own words (EU Directive 96/9/EC, åndsverkloven
	// § 43): extracting or re-using a substantial part of a database
	"extract*|extraction|re use|reuse|re utili*|reutili* ~ substantial part*", "substantial part* ~ of ~ database*",
	"uttrekk*|gjenbruk*|utnytt*|kopier* ~ vesentlig* del*", "vesentlig* del* ~ av ~ database*",
)

// collectCues name taking data without saying how: they make a sentence
// already on a topic a rule about collection, never one by themselves
// ("collect personal information about others" is a privacy rule).
var collectCues = compile("retriev*|collect|collects|collecting|collection|extract*|gather* ~ data|content|information|material*", "datainnsamlings")

// robotCues name automated means that count only when the sentence also
// speaks of taking content ("use robots to access the site"), not of
// something else done automatically ("robots to contact members").
var robotCues = compile(
	"robot*", "bot", "bots", "botnet*", "web robot*",
	"automated|automatic|automation ~ means|device*|system*|process*|tool*|software|script*|technolog*|method*|program*|agent*|manner",
	"computer program*",
	// "any engine, software, tool, agent, device or mechanism"
	"any ~ engine|engines|agent|agents", "robotar", "robotter", "spindl*",
	"automati* ~ system*|verktøy*|verktyg*|værktøj*|midler|måte|måter|program*|metod*|medel",
)

// aiActionCues are the uses of content for AI that an objection is about:
// training, building models, mining. A sentence that only mentions AI
// ("our machine learning models") objects to nothing.
var aiActionCues = compile(
	"train|trains|training|trained ~ model*|ai|algorithm*|system*|llm*|network*|dataset*|machine*|artificial",
	"model|models ~ training", "develop*|build*|creat*|improv* ~ model*|ai|llm*|artificial|machine|algorithm*", "text and data mining", "text ~ data mining", "tdm", "text mining",
	"machine learning ~ purpose*|system*|application*", "input* ~ into|to ~ ai|model*|artificial|machine",
	"fine tune*", "fine tuning", "finetun*", "finjuster*", "finjustera*",
	"tren* ~ modell*|ki|ai|algoritm*|språkmodell*|system*|kunstig*|maskin*", "træn* ~ modell*|ki|ai|kunstig*", "träna* ~ modell*|ai|artificiell*", "utvikl* ~ modell*|ki|ai",
	"tekst og datautvinning", "tekst og datautvinning*", "text och datautvinning", "maskinlæring",
)

// aiCues name AI training and text and data mining.
var aiCues = compile(
	"artificial intelligence", "machine learning", "deep learning", "ai", "a i", "genai", "llm", "llms", "ml",
	"train|trains|training|trained ~ model*|ai|algorithm*|system*|llm*|network*|dataset*|data|machine*",
	"model|models ~ training", "develop*|build*|creat*|improv* ~ model*|ai|llm*", "language model*", "neural network*", "foundation model*",
	"generative", "text and data mining", "text ~ data mining", "tdm", "text mining",
	// Scandinavian
	"kunstig intelligens", "ki", "maskinlæring", "maskinlæring*", "maskininlärning*", "artificiell intelligens", "dyp læring",
	"tren* ~ modell*|ki|ai|algoritm*|språkmodell*|system*", "træn* ~ modell*|ki|ai", "träna* ~ modell*|ai",
	"språkmodell*", "sprogmodel*", "generativ*", "tekst og datautvinning", "tekst og datautvinning*", "tekst og datamining", "text och datautvinning",
)

// licenceCues name licences, copyright and reuse of content; strong cues
// put a sentence under the topic by themselves, weak ones (copying verbs)
// only with a stance about the site's content.
var licenceStrong = compile(
	"licence", "licences", "license", "licenses", "licensed", "licensing", "licenced", "licencing", "creative commons", "cc by", "cc0", "cc by sa", "cc by nc", "nlod", "odbl", "public domain", "copyright*", "copyrighted",
	"intellectual property", "rights reserved", "reserves all rights", "reserve all rights", "reuse*", "re use*", "reusing",
	"lisens", "lisensen", "lisenser", "lisensiert", "lisensiere*", "lisensvilkår*", "opphavsrett*", "opphavsrätt*", "upphovsrätt*", "ophavsret*", "åndsverk*", "immaterielle rettigheter", "immaterielle rettar",
	"rettigheter forbeholdt", "rettigheder forbeholdes", "gjenbruk*", "viderebruk*", "videreformidl*", "licens", "licensen", "licensierad*", "återanvänd*", "genbrug*",
	"licenser", "licenserede", "licenseret", "licensgiver*", "licensgivare*", "licensrätt*", "licensmaterial*", "lisensgiver*", "lisensiert*",
	// reuse granted without a licence's name (reuseGrants)
	"kan|may|can ~ fritt|freely ~ brukes|deles|gjenbrukes|kopieres|viderebrukes|anvendes|bruges|deles|användas|delas|used|shared|reused|copied",
	"free to ~ adapt|copy|reuse|share|modify|redistribute|reproduce|remix|distribute",
	"freely|fritt|frit|openly|åpent ~ available|tilgjengelig|tilgjengeleg|tillgänglig|tilgængelig|usable|reusable ~ for",
	"open|opne|åpne|åpen|åpent|öppna|öppen|åbne|åben ~ for ~ reuse|gjenbruk|viderebruk|återanvändning|genbrug",
)

// grantCues give the reader a right outright: "X hereby grants you",
// "permission to use … is granted", "gir lisensgiver deg herved".
var grantCues = compile(
	"hereby grant*", "grant* ~ you|user|users|licensee|licensees", "is|are|hereby granted", "permission to ~ use|copy|reuse|reproduce|access",
	"gir ~ deg|dig|dere ~ herved", "gir ~ deg|dig ~ en|ei|et ~ rett|lisens|tillatelse",
	"gir|giver|ger ~ deg|dig|dere|jer|er ~ rett|retten|ret|retten|rätt|rätten|lisens|licens|tillatelse|tilladelse|tillstånd", "beviljar*", "erhverver du", "meddeler ~ dig",
)

// conditionCues introduce the conditions a grant is given on.
var conditionCues = compile("provided that", "provided", "as long as", "so long as", "on condition", "subject to", "forutsatt", "så lenge", "förutsatt", "så länge", "forudsat", "så længe", "på vilkår")

// licenceOfContent say what licence content is subject to.
var licenceOfContent = compile("subject to ~ licen*|lisens*", "subject to ~ terms ~ licen*", "governed by ~ licen*|lisens*")

// reuseGrants grant reuse of what a sentence speaks of by their
// construction, whatever its object is called: "you are free to adapt and
// use them", "fritt tilgjengelig for bruk i egne tjenester".
var reuseGrants = compile(
	"kan|may|can ~ fritt|freely ~ brukes|deles|gjenbrukes|kopieres|viderebrukes|anvendes|bruges|deles|användas|delas|used|shared|reused|copied",
	"free to ~ adapt|copy|reuse|share|modify|redistribute|reproduce|remix|distribute",
	"freely|fritt|frit|openly|åpent ~ available|tilgjengelig|tilgjengeleg|tillgänglig|tilgængelig|usable|reusable ~ for",
	"open|opne|åpne|åpen|åpent|öppna|öppen|åbne|åben ~ for ~ reuse|gjenbruk|viderebruk|återanvändning|genbrug",
)

var licenceWeak = compile(
	"copy", "copies", "copying", "copied", "reproduc*", "republish*", "redistribut*", "distribut*", "derivative work*", "mirror", "mirroring",
	"kopier*", "gjengi*", "gjengiv*", "reprodus*", "distribu*", "kopiera*", "mångfaldig*",
)

// apiCues name official APIs, feeds, exports and data downloads.
var apiCues = compile(
	"api", "apis", "application programming interface*", "feed", "feeds", "rss", "oai pmh", "data dump*", "bulk data", "data export*", "export* ~ data|dataset*|csv|json",
	"dataset*", "open data", "endpoint*", "sdk", "sdks", "webhook*", "api key*", "csv", "json",
	"tilbyr|tilbyder|erbjuder|offers|publishes|publiserer|publicerar ~ data|datasett*|datasets|dataset",
	"apiet", "apien", "grensesnitt*", "datasett*", "åpne data", "eksport* ~ data|datasett*|csv", "endepunkt*", "maskinlesbar*", "maskinläsbar*", "öppna data",
)

// prohibitCues are the constructions that forbid something, or reserve a
// right against it.
var prohibitCues = compile(
	"may not", "must not", "shall not", "will not", "cannot", "can not", "should not", "do not", "don't", "won't", "shan't", "mustn't",
	"may in no ~ event|case|way", "not permitted", "not allowed", "not authori*", "not be permitted", "prohibit*", "forbid*", "forbidden",
	"unauthori*", "without ~ consent|permission|authori*|approval|licen*|agreement", "without ~ written|prior|express|expressed ~ consent|permission|authori*|approval", "agree not", "agree ~ not to", "not to", "never", "refrain from", "no one may", "nobody may",
	"is not to be", "are not to be", "reserv* ~ right* ~ mining|tdm|training|train", "opt* out ~ text|mining|tdm",
	// permission required: "reproduction in full requires permission"
	"require|requires|required ~ permission|consent|licen*|authori*|approval", "krever|kreves ~ tillatelse|samtykke|avtale|lisens",
	"kræver|kræves ~ tilladelse|samtykke|aftale|licens", "kräver|krävs ~ tillstånd|samtycke|avtal|licens",
	// a rule stated by its consequence: "… may result in the termination
	// of your account", "… kan leda till avstängt konto"
	"result* in ~ termination|suspension|ban|banning|removal|closure|blocking", "lead* to ~ termination|suspension|ban|blocking",
	"føre* til ~ utestenging|stenging|sperring|avstenging|utelukkelse|oppsigelse", "leda* till ~ avstängning|avstängt|avstängda|uteslutning|spärr*",
	"medfør* ~ lukning|udelukkelse|spærring|utestenging|stenging",
	"except as ~ permitted|authori*|provided", "other than as ~ permitted|authori*|provided", "all rights reserved",
	// Scandinavian
	"å ikke", "å ikkje", "at ikke", "att inte", "nor may", "nor shall",
	"ikke tillatt*", "ikkje tillate*", "ikke lov", "ikkje lov", "forbudt", "forbode", "forbud*", "kan ikke", "kan ikkje", "må ikke", "må ikkje",
	// the Scandinavian verb before its subject: "skal du ikke", "får man inte"
	"skal|kan|må|får|bør|skall|ska ~ du|dere|de|ni|man|ein|brukeren|brukaren|användaren|brugeren ~ ikke|ikkje|inte|ej",
	"skal ikke", "skal ikkje", "har ikke lov", "ikke å", "ikkje å", "ikke bruke", "ulovlig*", "uautoriser*",
	"kommer inte att",
	"uten ~ samtykke|tillatelse|godkjenning|løyve|avtale", "utan ~ samtykke|løyve|medgivande|tillstånd|samtycke", "uden ~ samtykke|tilladelse",
	"ikke tilladt", "ikke tilladt*", "får inte", "får ej", "inte tillåt*", "förbjud*", "forbeholder*", "förbehåll*",
	"ikke hent*|kopier*|bruke|samle*|gjengi*|skrap*|distribu*|misbruk*|publiser*|videreformidl*", "ikkje hent*|kopier*|bruke|samle*",
)

// permitCues are the constructions that grant or permit.
var permitCues = compile(
	"licensed under", "licenced under", "available under", "available with", "released under", "published under", "made available under", "distributed under",
	"you may ~ use|copy|reuse|share|download|redistribute|reproduce|access|adapt|republish",
	"you can ~ use|copy|reuse|share|download|redistribute|reproduce", "you are ~ free to", "free to", "freely", "is permitted", "are permitted",
	"permission to ~ use|copy|reuse|reproduce", "grant* you", "granted to you", "licen* ~ to you", "may be ~ used|reused|copied|reproduced|shared|redistributed|republished",
	"open licen*", "waiver", "dedicat* ~ public domain", "free of charge", "at no cost", "openly available", "publicly available",
	"lisensiert under", "lisensieres under", "tilgjengelig under", "tilgjengeleg under", "kan fritt", "fritt", "fri bruk", "fri til",
	"kan ~ brukes|gjenbrukes|kopieres|lastes|deles|viderebrukes", "du kan ~ bruke|gjenbruke|kopiere|laste|dele|hente|få|finne|søke|abonnere|integrere|vise", "har lov til", "er tillatt*",
	"kan du ~ bruke|gjenbruke|kopiere|laste|dele|hente|få|finne|søke|abonnere|integrere|vise|hämta|ladda|använda|downloade|bruge",
	"du kan ~ hämta|ladda|använda|downloade|bruge",
	"you grant", "you hereby grant", "du gir oss", "gir deg", "gis du", "frit", "licensierad* under", "får ~ använda|kopiera|återanvända", "gratis",
	// who grants, to whom, what: "X hereby grants User a licence", "we
	// grant you a right", "Customer may use", "is licensed under CC BY"
	"hereby grant*", "grant* ~ you|user|users|licensee|customer|developer*", "is granted", "are granted", "hereby granted",
	"you are ~ allowed|permitted|entitled|welcome ~ to", "is|are welcome", "er velkommen|velkomne", "allowed to ~ use|copy|reuse|share|download|reproduce|redistribute|modify|adapt",
	"anyone|everyone|customer|customers|licensee|licensees|developer|developers|users ~ may|can ~ use|copy|reuse|access|download|share|replicate|retrieve|query|integrate|redistribute|reproduce|adapt|modify",
	"you may ~ replicate|retrieve|query|integrate|embed|display|modify|print|store|publish|distribute|index|mirror|build|apply|link|create",
	"under ~ cc|creative|nlod|odbl|cc0", "under norsk lisens",
	"open|opne|åpne|åpen|åpent|öppna|öppen|åbne|åben ~ for ~ reuse|gjenbruk|bruk|viderebruk|återanvändning|genbrug|use",
	"gir ~ deg|dig|dere", "giver ~ dig", "beviljar*", "meddeler ~ dig", "erhverver du", "du har ~ rett til", "du får ~ bruke|kopiere|dele|gjenbruke",
	"må gerne", "frit ~ bruge|kopiere|anvende|dele", "fritt ~ använda|kopiera|bruke|gjenbruke",
	"free to ~ adapt|copy|reuse|share|modify|redistribute|reproduce|remix|distribute|download|use",
)

// userCues mark the user's content licensed to the service, or the
// user's own rights in it.
var userCues = compile(
	"you grant", "you hereby grant", "you give us", "you give", "grant* ~ us", "grant* ~ to us", "grant* ~ company|provider|operator|licensor", "licen* ~ to us",
	"your content", "your user content", "user content", "content you ~ submit*|post*|upload*|provide*|share*|create*|make",
	"your data", "your input*", "your prompt*", "your feedback", "feedback", "submissions", "customer content", "customer data", "customer property",
	"your materials", "you provide", "you submit", "you own", "you retain", "your own", "your conversations", "your information",
	"user data", "users data", "personal data", "personal information", "granted by you", "grant* by you", "personopplysning*", "personuppgift*", "personoplysning*",
	"du gir oss", "du gir", "gir oss", "ditt innhold", "dine data", "ditt bidrag", "dine bidrag", "bidragslisens", "innhold ~ du ~ laster|legger|sender|deler",
	"member|user|customer|subscriber|contributor|licensee grants|grant", "medlemmet|brukeren|kunden gir",
	"du er skaperen", "du eier", "ditt eget", "suggestions", "du laster opp", "du lastar opp", "you upload*", "du uploader", "du laddar upp",
	"dataene dine", "innholdet ditt", "innhaldet ditt", "samtalene dine", "opplysningene dine", "dina uppgifter", "dina data", "ditt innehåll",
	"dine oplysninger", "dit indhold",
)

// serviceCues mark what the service itself does: its own AI, its
// renewals and billing, its own automated decisions and moderation.
var serviceCues = compile(
	"we use|uses|may use|utilize|utilizes|employ|employs ~ ai|artificial|machine|automated|automatic|models|algorithms",
	"our ai", "our models", "our own models", "ai features", "ai feature", "ai powered", "powered by ai", "ai assistant",
	"we ~ train*", "to train our", "train* ~ our ~ model*", "automatically renew*", "auto renew*", "automatic renewal*", "recurring payment*", "renew automatically",
	"automatically ~ charged|billed|renew*|create*|deducted|debited", "automated decision*", "automated processing", "automated individual", "profiling",
	"automatically generated", "generated automatically", "automated tools", "automated systems to", "automated moderation", "our automated",
	"vi bruker ~ ki|kunstig|maskinlæring|automati*", "vi|we ~ aldri|aldrig|never|ikke|ikkje|inte|not ~ bruke|bruge|använda|use|train|trene|træne|träna", "used|processed|utilized|brukt|brukes|benyttes|anvendt ~ by|av|af ~ us|oss|os",
	"we|vi ~ use|using|process|bruke|bruker|använder|anvender ~ for|til|för ~ training|trening|träning|træning|model|ai|ki", "fornyes automatisk", "automatisk fornye*", "automatisk ~ fornyet|trekk*|belast*", "automatiserte avgjørelser", "automatiserte beslutninger",
)

// othersWorks mark a sentence about other people's works (piracy, their
// rights): automated means in it are no rule about the site's content.
var othersWorks = compile("another person*", "other person*", "other people*", "pirat*", "copyrighted work*", "third party ~ work*|content|material*",
	"andres ~ verk*|innhold|rettigheter", "piratkopi*", "belonging to ~ others|another|third", "owner of such", "the owner of the")

// contentUseCues name the site's content as what is used, or trained on:
// "use of the content", "bruk av innholdet til trening", "train on the
// articles".
var contentUseCues = compile(
	"use|uses|using|used|usage|reuse|bruk|bruke|bruken|brukes|brukt|utnytt*|anvend*|använd*|brug* ~ content|contents|articles|texts|works|images|photos|innholdet|innhaldet|innhold|artikl*|tekst*|verk*|bilder*|indhold*|innehåll*",
	"train*|tren*|träna*|træn* ~ on|på|with|med ~ content|articles|texts|works|innholdet|innhaldet|artikl*|tekst*|indhold*|innehåll*",
	"content|contents|articles|texts|works|innholdet|innhaldet|artikl*|indhold*|innehåll* ~ is|are|er|blir|är|bliver|may|can|kan ~ used|brukt|brukes|benyttet|används|använts|bruges|brugt|be",
)

// accountCues name account creation: bots that register accounts are a
// rule about accounts, not about collecting content.
var accountCues = compile("create* ~ account*|profile*", "register* ~ account*|profile*", "account* ~ created|registered", "opprett* ~ konto*|brukerkonto*|profil*", "brukerkonto*")

// collectingCues show that a sentence about bots is about taking content.
var collectingCues = compile("access*", "collect*", "extract*", "retriev*", "download*", "copy*", "scrap*", "harvest*", "index*", "mine", "mining",
	"tilgang*", "hent*", "innhent*", "samle*", "kopier*", "laste*", "utvin*", "skrap*", "åtkomst",
	"hämta*", "insaml*", "indsaml*", "kopiera*", "ladda*", "adgang*")

// youCues are the subjects of a prohibition that binds the reader.
var youWords = map[string]bool{
	"you": true, "user": true, "users": true, "licensee": true, "licensees": true, "member": true, "members": true, "customer": true,
	"customers": true, "anyone": true, "nobody": true, "party": true, "parties": true, "visitors": true, "visitor": true, "one": true, "person": true,
	"du": true, "brukeren": true, "brukere": true, "brukerne": true, "ingen": true, "man": true, "kunden": true, "brugeren": true, "användaren": true,
	"agree": true, "and": true, "or": true, "og": true, "eller": true, "to": true, "not": true, "you'll": true, "you're": true,
}

// weWords are subjects that make a negation the service's own promise.
var weWords = map[string]bool{"we": true, "us": true, "vi": true, "oss": true, "it": true, "we'll": true}

// licenceOffTopic marks licence words used about something other than
// reuse of the site's content: infringement notices, software and app
// licences, licences bought for features, trade marks, arbitrators.
var licenceOffTopic = compile(
	"infring*", "dmca", "copyright agent", "millennium copyright",
	"virtual", "features", "feature", "purchase", "arbitrat*", "attorney", "export control*", "export law*",
	"export*|import* ~ regulation*|laws|sanction*", "law|laws|regulation*|rules ~ export*|import*", "regler|lover|lovar ~ eksport*|import*", "eksport* ~ land", "third party licen*", "export* ~ country|countries|jurisdiction*", "re export*",
	"notice", "notices", "merknad*", "copyright owner*", "good faith", "liability", "liable", "indemnif*", "warrant*", "damages",
	"virus*", "malware", "malicious", "in no event",
	// what users post, and rules on their credentials: not reuse of the
	// site's content
	"defamatory", "obscene", "pornograph*", "personally identifiable", "personal information", "personal data",
	"personopplysning*", "personuppgift*", "credential*", "api key*", "login*", "password*", "passord*",
	// getting round technical protection, third parties' products and rights
	"circumvent*", "omgå*", "kringgå*", "bypass*", "third party ~ product*|software|service*|right*", "of third part*", "andres rettigheter",
	// a licence that is no permission to reuse anything: a driving licence
	"driver* licen*", "driving licen*", "licen* plate*", "førerkort*",
	// the rights of others, not the site's: a rule against infringing them
	"person who owns", "owner* of the|that|such|this ~ material*|content|work*", "rights of ~ others|third|any person*",
	"violat* ~ anyone*|others*|another*|third", "from third part*", "fra tredjepart*", "från tredje part*", "third party content", "third party material*",
	"tredjeparts* ~ innhold|materiale|rettigheter", "garanter*", "confidential*", "konfidensiell*", "fortrolig*",
	// handing the contract itself to another party
	"assign*|transfer* ~ these|this ~ terms|agreement|avtale*|vilkår*", "overdra* ~ avtale*|vilkår*|rettigheter ~ etter",
)

// softwareCues mark a licence for software or an app; it is about the
// site's content only when the sentence also speaks of content ("the
// content, such as the software, text, photos …").
var softwareCues = compile("mobile software", "the software", "programvare*", "kildekode*", "source code", "software licen*", "this software", "open source", "compiled code", "app store", "eula",
	"end user licen*", "programvaren", "licensed application")

// siteObjects name the site's content or service as what a rule is about.
var siteObjects = compile(
	"our|the ~ content|contents|data|materials|material|services|service|site|website|databases|database|platform|app|application|metadata|information|works",
	"content|material*|data|information ~ from|on|of|available", "any ~ portion*|part*|content", "portion* of", "part of", "member content", "proprietary materials",
	"services", "service", "site", "website", "materials", "metadata", "database", "databases",
	"nettstedet", "nettsiden*", "tjenesten*", "innholdet", "innhold", "deler av", "materialet", "databasen", "appen", "dataene", "data",
	"articles", "artiklene", "artiklane", "artiklarna", "artiklerne", "texts", "photos", "images", "pictures", "videos", "bildene", "bilene", "tekstene",
	"indholdet", "indhold", "innehållet", "innehåll", "tjänsten", "tjänsterna", "webbplatsen", "hjemmesiden", "materialer", "materiale",
)

// apiOffered mark an API, feed or export the site offers ("available via
// our API"), not one it merely uses or names.
var apiOffered = compile(
	"available", "provided to you", "provide you", "offer*|offers ~ api*|feed*|export*", "via our", "through our", "in our", "our api*", "free of charge", "free to use", "open api*",
	"tilbyr", "tilgjengelig*", "tilbys", "gjennom vårt|vår|våre", "ment for", "gratis", "åpent|åpne api*",
	// an offer in the words of a download page: "Her finner du datafiler i
	// CSV-format", "you can download the data", "using the Public APIs"
	"her finner du", "här hittar du", "her finder du", "here you|you'll ~ find", "you can|may ~ find|download|retrieve|query|access|replicate",
	"du kan ~ laste ned|hente|finne|bruke", "kan lastes ned", "last ned", "ladda ner", "hent* ~ data|datasett*", "public api*", "offentlig* api*", "using the ~ api*",
)

// thirdParty marks an API or licence of someone else.
var thirdParty = compile("google", "apple", "third party", "third parties", "tredjepart*", "tredjeparts*")

// tradeMarks mark a rule about names and logos; it is about the site's
// content only when the sentence also speaks of content.
var tradeMarks = compile("trademark*", "trade mark*", "trade dress", "service mark*", "logo", "logos", "slogan*", "trade name*", "varemerke*", "kjennetegn*",
	"app", "apps", "decompil*", "reverse engineer*", "disassembl*", "object code", "security technolog*", "technological measure*",
	"look and feel", "acronym*")

var contentWords = compile("content", "contents", "material", "materials", "data", "innhold*", "innholdet", "metadata", "database*", "information", "indhold*", "innehåll*",
	"informasjon*", "opplysning*", "oplysning*", "uppgifter", "datafil*", "dataset*", "datasett*",
	"articles", "artiklene", "artiklane", "artiklarna", "artiklerne", "artikler", "artiklar", "materialet", "materiale", "materialer", "materialene", "materialen", "licensmaterial*")

// allLists are every cue list: a sentence is matched against all of them
// in one pass (cue.go). A list missing here is a programming error that
// the first use of it reports.
var allLists = []*cueList{
	scrapingCues, robotCues, aiActionCues, aiCues, licenceStrong, licenceWeak, apiCues, prohibitCues, permitCues,
	userCues, serviceCues, accountCues, collectingCues, licenceOffTopic, siteObjects, apiOffered, thirdParty,
	tradeMarks, contentWords, reservedCues, licenceNames, disclaimerCues, softwareCues, humanUseCues, userDataCues, reuseGrants, othersWorks,
	contentUseCues, acceptanceCues, grantCues, licenceOfContent, conditionCues, collectCues,
}
