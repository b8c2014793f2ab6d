import type { Department } from "~/domain/tickets/tickets";
import {
  KB_LOCALES,
  KB_PAYMENTS_CATEGORY,
  PAYMENT_METHOD_GUIDES,
  type KbLocale,
  type KbTexts,
} from "./knowledgebase";

// The knowledge base a new install starts with (seedKnowledgeBase): how to reach a game server and its
// files, and how to buy coins with each built-in payment method. Each guide of a kind is one template
// per language filled with what differs (a game's ports and client, a method's name and way of paying),
// so a fact is written once and the three languages cannot drift apart.

export interface KbCategorySeed {
  slug: string;
  names: KbTexts;
  department: Department | null;
}

export interface KbArticleSeed {
  category: string;
  slug: string;
  titles: KbTexts;
  bodies: KbTexts;
}

/** Each language's text, made by one function of the language. */
function perLocale(text: (locale: KbLocale) => string): KbTexts {
  return Object.fromEntries(KB_LOCALES.map((locale) => [locale, text(locale)])) as KbTexts;
}

const lines = (...parts: string[]) => parts.join("\n");

export const KB_CATEGORY_SEEDS: readonly KbCategorySeed[] = [
  {
    slug: "game-servers",
    names: { en: "Game servers", fr: "Serveurs de jeu", ar: "خوادم الألعاب" },
    department: "technical",
  },
  {
    slug: KB_PAYMENTS_CATEGORY,
    names: { en: "Coins and payments", fr: "Coins et paiements", ar: "الكوينز والدفع" },
    department: "billing",
  },
];

/** What a connection guide says of one game. */
interface GameGuide {
  slug: string;
  game: string;
  client: string;
  /** The client's button that takes an address. */
  button: string;
  port: number;
  /** Other ports the server listens on, with what for (per language). */
  otherPorts: { port: string; what: KbTexts }[];
}

const GAMES: readonly GameGuide[] = [
  {
    slug: "connect-samp-server",
    game: "SA-MP",
    client: "SA-MP (San Andreas Multiplayer)",
    button: "Add Server",
    port: 7777,
    otherPorts: [],
  },
  {
    slug: "connect-mta-server",
    game: "MTA:SA",
    client: "Multi Theft Auto",
    button: "Quick Connect",
    port: 22003,
    otherPorts: [
      {
        port: "22005 TCP",
        what: {
          en: "HTTP: the client downloads the server's resources from it",
          fr: "HTTP : le client y télécharge les ressources du serveur",
          ar: "HTTP: يحمّل منه العميل موارد الخادم",
        },
      },
      {
        port: "22126 UDP",
        what: {
          en: "ASE: the server browser reads the server's name and players from it",
          fr: "ASE : la liste des serveurs y lit le nom du serveur et ses joueurs",
          ar: "ASE: تقرأ منه قائمة الخوادم اسم الخادم ولاعبيه",
        },
      },
    ],
  },
];

function connectTitle(locale: KbLocale, game: string): string {
  return {
    en: `Connecting to your ${game} server`,
    fr: `Se connecter à votre serveur ${game}`,
    ar: `الاتصال بخادم ${game} الخاص بك`,
  }[locale];
}

function connectBody(locale: KbLocale, g: GameGuide): string {
  const address = `51.38.10.20:${g.port}`;
  const ports = g.otherPorts.map((other) => `- ${other.port}: ${other.what[locale]}`);
  const text = {
    en: lines(
      `Your ${g.game} server is reached at its address and its game port, ${g.port} UDP, written together as IP:port (for example \`${address}\`).`,
      "",
      "## Find the address",
      "1. Sign in and open [your services](/dashboard/services).",
      "2. Open your server's page and copy its address with the port.",
      "",
      "## Connect",
      `1. Start ${g.client} on your computer.`,
      `2. Click “${g.button}” and paste the address (IP:port).`,
      "3. Join the server.",
      ...(ports.length ? ["", "## Other ports", ...ports] : []),
      "",
      "## It does not show up",
      "- Check on its page that the server is started.",
      `- Check that your firewall or router lets UDP port ${g.port} out.`,
      "- Still stuck? [Open a ticket](/support/new) with a screenshot of the error.",
    ),
    fr: lines(
      `Votre serveur ${g.game} se joint par son adresse et son port de jeu, ${g.port} UDP, écrits ensemble sous la forme IP:port (par exemple \`${address}\`).`,
      "",
      "## Trouver l'adresse",
      "1. Connectez-vous et ouvrez [vos services](/dashboard/services).",
      "2. Ouvrez la page de votre serveur et copiez son adresse avec le port.",
      "",
      "## Se connecter",
      `1. Lancez ${g.client} sur votre ordinateur.`,
      `2. Cliquez sur « ${g.button} » et collez l'adresse (IP:port).`,
      "3. Rejoignez le serveur.",
      ...(ports.length ? ["", "## Autres ports", ...ports] : []),
      "",
      "## Le serveur n'apparaît pas",
      "- Vérifiez sur sa page que le serveur est bien démarré.",
      `- Vérifiez que votre pare-feu ou votre box laisse sortir le port UDP ${g.port}.`,
      "- Toujours bloqué ? [Ouvrez un ticket](/support/new) avec une capture d'écran de l'erreur.",
    ),
    ar: lines(
      `يُتصل بخادم ${g.game} الخاص بك عبر عنوانه ومنفذ اللعب ${g.port} UDP، ويُكتبان معًا بالشكل IP:port (مثلًا \`${address}\`).`,
      "",
      "## إيجاد العنوان",
      "1. سجّل الدخول وافتح [خدماتك](/dashboard/services).",
      "2. افتح صفحة خادمك وانسخ عنوانه مع المنفذ.",
      "",
      "## الاتصال",
      `1. شغّل ${g.client} على حاسوبك.`,
      `2. اضغط على «${g.button}» والصق العنوان (IP:port).`,
      "3. ادخل إلى الخادم.",
      ...(ports.length ? ["", "## منافذ أخرى", ...ports] : []),
      "",
      "## الخادم لا يظهر",
      "- تأكد من صفحة الخادم أنه قيد التشغيل.",
      `- تأكد من أن جدار الحماية أو الراوتر يسمح بخروج منفذ UDP ${g.port}.`,
      "- ما زالت المشكلة قائمة؟ [افتح تذكرة](/support/new) مع لقطة شاشة للخطأ.",
    ),
  };
  return text[locale];
}

const SFTP: KbArticleSeed = {
  category: "game-servers",
  slug: "sftp-access",
  titles: {
    en: "Uploading files with SFTP",
    fr: "Envoyer des fichiers par SFTP",
    ar: "رفع الملفات عبر SFTP",
  },
  bodies: perLocale((locale) => {
    const client = "FileZilla / WinSCP";
    const example = "`sftp://node1.example.com:2022`";
    return {
      en: lines(
        "Your server's files (scripts, maps, resources) are uploaded with SFTP, the game panel's file access.",
        "",
        "## What to type",
        `- Host: the panel's node address shown on your server's page, for example ${example}`,
        "- Port: 2022 (the game panel's SFTP port, not 22)",
        "- Username: exactly as the panel shows it (it ends with a dot and your server's short id)",
        "- Password: your game panel password",
        "",
        "## With a client",
        `1. Install ${client}.`,
        "2. Choose the SFTP protocol, fill in the host, port 2022, username and password, and connect.",
        "3. Drag your files into the server's folder, then restart the server from its page.",
      ),
      fr: lines(
        "Les fichiers de votre serveur (scripts, cartes, ressources) s'envoient par SFTP, l'accès aux fichiers du panneau de jeu.",
        "",
        "## Ce qu'il faut saisir",
        `- Hôte : l'adresse du nœud indiquée sur la page de votre serveur, par exemple ${example}`,
        "- Port : 2022 (le port SFTP du panneau de jeu, pas 22)",
        "- Nom d'utilisateur : exactement comme le panneau l'affiche (il finit par un point et l'identifiant court du serveur)",
        "- Mot de passe : celui de votre panneau de jeu",
        "",
        "## Avec un client",
        `1. Installez ${client}.`,
        "2. Choisissez le protocole SFTP, saisissez l'hôte, le port 2022, le nom d'utilisateur et le mot de passe, puis connectez-vous.",
        "3. Glissez vos fichiers dans le dossier du serveur, puis redémarrez le serveur depuis sa page.",
      ),
      ar: lines(
        "تُرفع ملفات خادمك (السكربتات والخرائط والموارد) عبر SFTP، وهو وصول لوحة الألعاب إلى الملفات.",
        "",
        "## ما يجب إدخاله",
        `- المضيف: عنوان العقدة الظاهر في صفحة خادمك، مثلًا ${example}`,
        "- المنفذ: 2022 (منفذ SFTP الخاص بلوحة الألعاب، وليس 22)",
        "- اسم المستخدم: كما تعرضه اللوحة تمامًا (ينتهي بنقطة ثم المعرّف القصير للخادم)",
        "- كلمة المرور: كلمة مرور لوحة الألعاب",
        "",
        "## باستخدام برنامج",
        `1. ثبّت ${client}.`,
        "2. اختر بروتوكول SFTP، وأدخل المضيف والمنفذ 2022 واسم المستخدم وكلمة المرور، ثم اتصل.",
        "3. اسحب ملفاتك إلى مجلد الخادم، ثم أعد تشغيل الخادم من صفحته.",
      ),
    }[locale];
  }),
};

/** What a payment guide says of one built-in method (its code, app/domain/payments). */
interface MethodGuide {
  code: keyof typeof PAYMENT_METHOD_GUIDES;
  names: KbTexts;
  /** Manual: paid outside the site with a reference, then approved; online: paid on the provider's page. */
  online: boolean;
  /** How the money is sent, for a manual method, per language. */
  how?: KbTexts;
}

const WALLET_HOW = (wallet: string): KbTexts => ({
  en: `From your ${wallet} wallet (the app, or a shop), send the amount to the number written in the instructions.`,
  fr: `Depuis votre portefeuille ${wallet} (l'application, ou en agence), envoyez le montant au numéro indiqué dans les instructions.`,
  ar: `من محفظة ${wallet} (التطبيق أو الوكالة)، أرسل المبلغ إلى الرقم المكتوب في التعليمات.`,
});

const METHODS: readonly MethodGuide[] = [
  {
    code: "orange-money",
    names: { en: "Orange Money", fr: "Orange Money", ar: "Orange Money" },
    online: false,
    how: WALLET_HOW("Orange Money"),
  },
  {
    code: "inwi-money",
    names: { en: "Inwi Money", fr: "Inwi Money", ar: "Inwi Money" },
    online: false,
    how: WALLET_HOW("Inwi Money"),
  },
  {
    code: "cashplus",
    names: { en: "cashPlus", fr: "cashPlus", ar: "cashPlus" },
    online: false,
    how: {
      en: "At a cashPlus agency (or in its app), send the amount to the name and number written in the instructions.",
      fr: "En agence cashPlus (ou dans son application), envoyez le montant au nom et au numéro indiqués dans les instructions.",
      ar: "في وكالة cashPlus (أو عبر تطبيقها)، أرسل المبلغ إلى الاسم والرقم المكتوبين في التعليمات.",
    },
  },
  {
    code: "bank-transfer",
    names: { en: "bank transfer", fr: "virement bancaire", ar: "التحويل البنكي" },
    online: false,
    how: {
      en: "From your bank, make a transfer to the account (IBAN) written in the instructions.",
      fr: "Depuis votre banque, faites un virement vers le compte (IBAN) indiqué dans les instructions.",
      ar: "من بنكك، قم بتحويل إلى الحساب (IBAN) المكتوب في التعليمات.",
    },
  },
  {
    code: "paypal",
    names: { en: "PayPal", fr: "PayPal", ar: "PayPal" },
    online: false,
    how: {
      en: "From your PayPal account, send the amount to the address written in the instructions, as a payment to friends and family.",
      fr: "Depuis votre compte PayPal, envoyez le montant à l'adresse indiquée dans les instructions, en paiement entre proches.",
      ar: "من حساب PayPal الخاص بك، أرسل المبلغ إلى العنوان المكتوب في التعليمات كدفعة للأصدقاء والعائلة.",
    },
  },
  {
    code: "paypal-checkout",
    names: { en: "PayPal or card", fr: "PayPal ou carte", ar: "PayPal أو البطاقة" },
    online: true,
  },
  {
    code: "youcanpay",
    names: { en: "card (YouCan Pay)", fr: "carte (YouCan Pay)", ar: "البطاقة (YouCan Pay)" },
    online: true,
  },
];

function methodTitle(locale: KbLocale, name: string): string {
  return {
    en: `Buying coins with ${name}`,
    fr: `Acheter des coins par ${name}`,
    ar: `شراء الكوينز عبر ${name}`,
  }[locale];
}

function methodBody(locale: KbLocale, m: MethodGuide): string {
  const start = {
    en: "1 coin is worth 1 euro. Open [Add coins](/dashboard/top-up), choose how many coins and this method.",
    fr: "1 coin vaut 1 euro. Ouvrez [Ajouter des coins](/dashboard/top-up), choisissez le nombre de coins et ce moyen de paiement.",
    ar: "الكوين الواحد يساوي 1 يورو. افتح [إضافة كوينز](/dashboard/top-up) واختر عدد الكوينز ووسيلة الدفع هذه.",
  }[locale];
  if (m.online)
    return {
      en: lines(
        start,
        "",
        "## Pay",
        "1. Click “Pay”: you go to the provider's secure page.",
        "2. Pay there, then you come back to the site.",
        "3. The coins are added to your balance as soon as the provider confirms the payment, usually within a minute.",
      ),
      fr: lines(
        start,
        "",
        "## Payer",
        "1. Cliquez sur « Payer » : vous arrivez sur la page sécurisée du prestataire.",
        "2. Payez-y, puis vous revenez sur le site.",
        "3. Les coins s'ajoutent à votre solde dès que le prestataire confirme le paiement, en général en moins d'une minute.",
      ),
      ar: lines(
        start,
        "",
        "## الدفع",
        "1. اضغط على «ادفع»: ستنتقل إلى الصفحة الآمنة لمزوّد الدفع.",
        "2. ادفع هناك، ثم تعود إلى الموقع.",
        "3. تُضاف الكوينز إلى رصيدك فور تأكيد المزوّد للدفع، عادةً في أقل من دقيقة.",
      ),
    }[locale];
  return {
    en: lines(
      start,
      "",
      "## Pay",
      "1. The site gives you a reference (HF-…) and the amount to send: keep the page open.",
      `2. ${m.how!.en} Write the reference in the message of the payment.`,
      "3. Back on the site, click “I have paid”, say from which account and when, and attach a screenshot of the receipt.",
      "",
      "## Then",
      "The staff check the payment and add the coins, usually within a few hours. You get a notification.",
    ),
    fr: lines(
      start,
      "",
      "## Payer",
      "1. Le site vous donne une référence (HF-…) et le montant à envoyer : gardez la page ouverte.",
      `2. ${m.how!.fr} Écrivez la référence dans le message du paiement.`,
      "3. De retour sur le site, cliquez sur « J'ai payé », indiquez depuis quel compte et quand, et joignez une capture du reçu.",
      "",
      "## Ensuite",
      "L'équipe vérifie le paiement et ajoute les coins, en général en quelques heures. Vous recevez une notification.",
    ),
    ar: lines(
      start,
      "",
      "## الدفع",
      "1. يعطيك الموقع مرجعًا (HF-…) والمبلغ المطلوب إرساله: أبقِ الصفحة مفتوحة.",
      `2. ${m.how!.ar} اكتب المرجع في رسالة الدفع.`,
      "3. بعد العودة إلى الموقع، اضغط على «لقد دفعت»، واذكر الحساب الذي دفعت منه ومتى، وأرفق لقطة شاشة للإيصال.",
      "",
      "## بعد ذلك",
      "يتحقق الفريق من الدفع ويضيف الكوينز، عادةً خلال بضع ساعات. وسيصلك إشعار بذلك.",
    ),
  }[locale];
}

export const KB_ARTICLE_SEEDS: readonly KbArticleSeed[] = [
  ...GAMES.map((game) => ({
    category: "game-servers",
    slug: game.slug,
    titles: perLocale((locale) => connectTitle(locale, game.game)),
    bodies: perLocale((locale) => connectBody(locale, game)),
  })),
  SFTP,
  ...METHODS.map((method) => ({
    category: KB_PAYMENTS_CATEGORY,
    slug: PAYMENT_METHOD_GUIDES[method.code]!,
    titles: perLocale((locale) => methodTitle(locale, method.names[locale])),
    bodies: perLocale((locale) => methodBody(locale, method)),
  })),
];
