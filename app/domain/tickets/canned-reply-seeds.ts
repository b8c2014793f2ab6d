import type { CannedReplyInput } from "./canned-replies";

// The canned replies a new install starts with (seedCannedReplies): what a game host's support writes
// most, in the three languages, each a starting point the staff may reword or delete. The titles are
// the staff's, in English; the texts are the customers', in theirs.

const SIGNATURE = {
  en: "The support team",
  fr: "L'équipe support",
  ar: "فريق الدعم",
};

export const CANNED_REPLY_SEEDS: readonly CannedReplyInput[] = [
  {
    title: "How to connect to your SA-MP server",
    department: "technical",
    texts: {
      en: [
        "Hello {name},",
        "",
        "To connect to your SA-MP server:",
        "1. In your dashboard, open the Services tab and your server's page, and copy its address with its port (for example 51.38.10.20:7777).",
        "2. Start SA-MP on your computer, click “Add Server” and paste that address.",
        "3. Select the server in your favourites and click “Connect”.",
        "",
        "If it does not show up, check on its page that the server is started, then reply to this ticket with a screenshot of what you see.",
        "",
        SIGNATURE.en,
      ].join("\n"),
      fr: [
        "Bonjour {name},",
        "",
        "Pour vous connecter à votre serveur SA-MP :",
        "1. Dans votre espace client, ouvrez l'onglet Services puis la page de votre serveur, et copiez son adresse avec le port (par exemple 51.38.10.20:7777).",
        "2. Lancez SA-MP sur votre ordinateur, cliquez sur « Add Server » et collez cette adresse.",
        "3. Sélectionnez le serveur dans vos favoris et cliquez sur « Connect ».",
        "",
        "S'il n'apparaît pas, vérifiez sur sa page que le serveur est bien démarré, puis répondez à ce ticket avec une capture d'écran de ce que vous voyez.",
        "",
        SIGNATURE.fr,
      ].join("\n"),
      ar: [
        "مرحبًا {name}،",
        "",
        "للاتصال بخادم SA-MP الخاص بك:",
        "1. افتح تبويب «الخدمات» في لوحة التحكم ثم صفحة خادمك، وانسخ عنوانه مع المنفذ (مثلًا 51.38.10.20:7777).",
        "2. شغّل SA-MP على حاسوبك، واضغط على «Add Server» ثم الصق هذا العنوان.",
        "3. اختر الخادم من قائمة المفضلة واضغط على «Connect».",
        "",
        "إذا لم يظهر الخادم، فتأكد من صفحته أنه قيد التشغيل، ثم ردّ على هذه التذكرة بلقطة شاشة لما يظهر لك.",
        "",
        SIGNATURE.ar,
      ].join("\n"),
    },
  },
  {
    title: "We are looking into it",
    department: null,
    texts: {
      en: [
        "Hello {name},",
        "",
        "Thank you for your message. We are looking into ticket #{ticket} and will reply here as soon as we know more. There is no need to open another ticket.",
        "",
        SIGNATURE.en,
      ].join("\n"),
      fr: [
        "Bonjour {name},",
        "",
        "Merci pour votre message. Nous examinons le ticket #{ticket} et vous répondrons ici dès que nous en saurons plus. Inutile d'ouvrir un autre ticket.",
        "",
        SIGNATURE.fr,
      ].join("\n"),
      ar: [
        "مرحبًا {name}،",
        "",
        "شكرًا على رسالتك. نحن نتابع التذكرة رقم {ticket} وسنرد عليك هنا فور حصولنا على مزيد من المعلومات. لا حاجة إلى فتح تذكرة أخرى.",
        "",
        SIGNATURE.ar,
      ].join("\n"),
    },
  },
  {
    title: "Your payment was received",
    department: "billing",
    texts: {
      en: [
        "Hello {name},",
        "",
        "We have received your payment, thank you. The coins have been added to your balance: you can use them right away from your dashboard.",
        "",
        SIGNATURE.en,
      ].join("\n"),
      fr: [
        "Bonjour {name},",
        "",
        "Nous avons bien reçu votre paiement, merci. Les coins ont été ajoutés à votre solde : vous pouvez les utiliser dès maintenant depuis votre espace client.",
        "",
        SIGNATURE.fr,
      ].join("\n"),
      ar: [
        "مرحبًا {name}،",
        "",
        "لقد استلمنا دفعتك، شكرًا لك. أُضيفت الكوينز إلى رصيدك ويمكنك استخدامها فورًا من لوحة التحكم.",
        "",
        SIGNATURE.ar,
      ].join("\n"),
    },
  },
  {
    title: "Please send a screenshot",
    department: null,
    texts: {
      en: [
        "Hello {name},",
        "",
        "To help us find the cause, please reply to this ticket with a screenshot of the error (or of your server's console) and the time it happened.",
        "",
        SIGNATURE.en,
      ].join("\n"),
      fr: [
        "Bonjour {name},",
        "",
        "Pour nous aider à trouver la cause, merci de répondre à ce ticket avec une capture d'écran de l'erreur (ou de la console de votre serveur) et l'heure à laquelle elle est apparue.",
        "",
        SIGNATURE.fr,
      ].join("\n"),
      ar: [
        "مرحبًا {name}،",
        "",
        "لمساعدتنا على معرفة السبب، يُرجى الرد على هذه التذكرة بلقطة شاشة للخطأ (أو لوحدة تحكم خادمك) مع ذكر وقت ظهوره.",
        "",
        SIGNATURE.ar,
      ].join("\n"),
    },
  },
];
