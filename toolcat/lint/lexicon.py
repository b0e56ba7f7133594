"""The detector's cue words in languages its first lexicon (`detector._ELSEWHERE`) lacks.

A few words a concept, by language and by cue, written from dictionaries of meaning (not from
any attack): the model addressed, the user, keeping something from them, obeying what a page
says, ranking above the user, guidance revoked, always, sending, secrets, the conversation,
contents, running a script, another tool, another tool's call tampered with, lying, and the
user's word set aside (`over_user`) or another tool set aside (`shadow`). Each is matched
against one lower-cased sentence; the detector joins them to its cues of the same name.

Scripts whose vowel signs are no word characters (Thai, Devanagari, Bengali, Tamil) and
scripts without spaces between words are matched without word boundaries; prefixes that
attach to a word (Hebrew's "to the", "and") are matched inside it.
"""

from __future__ import annotations

# an identifier of another tool, as the cues read it
_ID = r"[a-z0-9]+_[a-z0-9_]+"
# another tool's identifier called deprecated or broken, or its calls sent here, in many
# languages (another tool set aside, not merely preferred: "use this instead of X" is a
# server's honest advice for its own tools)
_DEPRECATED = (r"\b" + _ID + r"[^.!?]{0,40}\b(?:obsolet[oa]|obsolète|veraltet|kaputt|defekt"
               r"|roto|quebrad[oa]|cassé|rotto|eskimiş|bozuk|usang|rusak|uszkodzon\w*"
               # withdrawn, discontinued, switched off
               r"|retirad[oa]|en desuso|descontinuad[oa]|desativad[oa]|retiré|abandonné"
               r"|eingestellt|abgekündigt|dismess[oa]|ritirat[oa]|verouderd|uitgefaseerd"
               r"|kullanımdan kaldırıl\w*|tidak digunakan lagi|dihentikan|wycofan\w*"
               r"|zastaral\w*|vyřazen\w*|învechit\w*|föråldrad|utfasad|vanhentunut"
               r"|elavult)\b")
_DEPRECATED_SCRIPTS = (r"\b" + _ID + r"[^.!?。]{0,40}(?:przestarzał|устарел|сломан"
                       r"|застаріл|không dùng nữa|已弃用|已废弃|损坏|非推奨|壊れ|더 이상 사용되지"
                       r"|고장|מיושן|منسوخ|معطل|καταργημένο|χαλασμένο|पुराना|खराब)")


# the languages (and "more": words of several) written in Latin letters, whose words an
# ASCII text may hold
LATIN = frozenset({"cs", "ro", "sw", "ms", "tl", "sv", "fi", "hu", "yo", "ha", "zu", "uz", "az",
                   "sr", "sk", "forms", "more"})

LEXICON: dict[str, dict[str, str]] = {
    "fa": {  # Persian
        "addressed": r"(?:^|[^\w])(?:شما|دستیار|مدل زبانی)(?:[^\w]|$)",
        "user": r"کاربر",
        "hiding": r"(?:نگو|نگویید|اطلاع نده|اطلاع ندهید|اشاره نکن|اشاره نکنید|ذکر نکن"
                  r"|ذکر نکنید|مطلع نکن)|بدون اطلاع|پنهان نگه",
        "fetch_obey": r"اجرا کن|اجرا کنید|پیروی کن|پیروی کنید|عمل کن|عمل کنید",
        "priority": r"اولویت|مهم‌تر از|مهمتر از|در درجه(?:ٔ|ی)? دوم|مقدم بر",
        "revoke": r"(?:قوانین|قواعد|دستورالعمل|هشدار|احتیاط|محدودیت)[^.!?؟]{0,90}"
                  r"(?:دیگر (?:معتبر|اعمال|لازم)|لغو|باطل)|نادیده بگیر",
        "always": r"همیشه|هر بار",
        "send": r"بفرست|ارسال کن|ارسال کنید",
        "secrets": r"رمز عبور|گذرواژه|توکن",
        "conversation": r"گفتگو|گفت‌وگو|مکالمه|پیام‌های قبلی",
        "contents": r"محتوا",
        "other_tools": r"ابزار(?:های)? دیگر|ابزار\s+" + _ID,
        "lying": r"حتی اگر[^.!?؟]{0,80}(?:بگو|اعلام کن)|اگرچه (?:این )?درست نیست",
        "over_user": r"درخواست کاربر[^.!?؟]{0,20}(?:در درجه|اهمیت کمتر)",
    },
    "he": {  # Hebrew
        "addressed": r"(?:^|[^\w])(?:אתה|עליך|העוזר|המודל|הסוכן)(?:[^\w]|$)",
        "user": r"משתמש|לקוח",
        "hiding": r"(?:אל|לא|בלי|מבלי)\s+(?:תספר|תגיד|תציין|תזכיר|תודיע|לספר|להזכיר|לציין"
                  r"|ליידע|להודיע)|אין\s+(?:לציין|לספר|להזכיר|ליידע|להודיע|לגלות)",
        # "בצע" alone is any "perform" ("perform a search"): only with what is obeyed
        "fetch_obey": r"(?:^|[^\w])(?:פעל לפי|עקוב אחר|ציית|בצע את ההוראות|בצע כל)",
        "priority": r"עדיפות|קודם ל|חשוב יותר מ",
        "revoke": r"(?:הכללים|ההוראות|האזהרות|ההנחיות|אמצעי הזהירות)[^.!?]{0,90}(?:כבר לא"
                  r"|אינם בתוקף|בוטלו|לא חלים)|התעלם מ\S*\s+(?:ההוראות|הכללים|ההנחיות)",
        "always": r"תמיד",
        "send": r"(?:^|[^\w])(?:שלח|לשלוח|העבר|להעביר)",
        "secrets": r"סיסמ|טוקן|אסימון",
        "conversation": r"השיחה|ההודעות הקודמות",
        "contents": r"תוכן",
        "other_tools": r"כלי אחר|כלים אחרים|הכלי\s+" + _ID,
        "lying": r"גם אם[^.!?]{0,80}(?:תגיד|אמור|ספר|דווח)|(?:תגיד|אמור|דווח)[^.!?]{0,80}"
                 r"(?:גם אם|למרות ש)",
    },
    "th": {  # Thai: no spaces between words, vowel signs: no word boundaries
        "addressed": r"ผู้ช่วย|โมเดล",
        "user": r"ผู้ใช้",
        "hiding": r"ไม่ต้องแจ้ง|อย่าบอก|ไม่ต้องบอก|อย่าแจ้ง|ห้ามบอก|ห้ามแจ้ง|โดยไม่แจ้ง"
                  r"|อย่าให้ผู้ใช้รู้|ไม่ต้องกล่าวถึง|อย่ากล่าวถึง",
        "fetch_obey": r"ทำตาม|ปฏิบัติตาม",
        "priority": r"สำคัญกว่า|ลำดับความสำคัญ|มาก่อนคำขอ",
        "revoke": r"(?:กฎ|คำแนะนำ|คำเตือน|ข้อจำกัด)[^.!?]{0,60}(?:ไม่มีผล|ยกเลิก|ไม่ใช้แล้ว)"
                  r"|เพิกเฉยต่อคำสั่ง|ละเว้นคำสั่ง",
        "always": r"เสมอ|ทุกครั้ง",
        "send": r"ส่งไป|ส่งให้|ส่งต่อ",
        "secrets": r"รหัสผ่าน|โทเค็น",
        "conversation": r"บทสนทนา|การสนทนา|ข้อความก่อนหน้า",
        "contents": r"เนื้อหา",
        "argument": r"(?:ลง|ใส่)ในช่อง|ในพารามิเตอร์",
        "execute": r"ดาวน์โหลดแล้วรัน|ดาวน์โหลดและรัน|รันสคริปต์",
        "other_tools": r"เครื่องมืออื่น",
        "lying": r"แม้ว่า[^.!?]{0,60}(?:บอก|แจ้ง|ตอบ)|บอกว่า[^.!?]{0,60}แม้ว่า",
    },
    "el": {  # Greek
        "addressed": r"(?:^|[^\w])(?:εσύ|εσείς|βοηθός|το μοντέλο)(?:[^\w]|$)",
        "user": r"χρήστ\w*",
        "hiding": r"\bμην (?:το )?(?:πεις|πείτε|αναφέρεις|αναφέρετε|ενημερώσεις|ενημερώσετε"
                  r"|δείξεις)\b|\bχωρίς να (?:ενημερώσ|το πει|αναφέρ)\w*|\bεν αγνοία"
                  # passive: "are never mentioned (in the reply)"
                  r"|\bδεν (?:αναφέρ|εμφανίζ|λέγ)\w*[^.!?]{0,20}(?:ποτέ|στην απάντηση|στον χρήστη)"
                  r"|\bποτέ δεν (?:αναφέρ|εμφανίζ|λέγ)\w*",
        "fetch_obey": r"\b(?:ακολούθησε|ακολουθήστε|εκτέλεσε|εκτελέστε|εφάρμοσε|εφαρμόστε)\b",
        "priority": r"\b(?:προτεραιότητα|πιο σημαντικ\w*|υπερισχύ\w*)",
        "revoke": r"\b(?:κανόνες|οδηγίες|προειδοποιήσεις|περιορισμοί|προφυλάξεις)\b[^.!?]{0,90}"
                  r"(?:δεν ισχύ|καταργ|άκυρ|δεν χρειάζ)|\bαγνόησε\b[^.!?]{0,40}(?:οδηγίες"
                  r"|κανόνες)",
        "always": r"\bπάντα\b",
        "send": r"\b(?:στείλε|στείλτε|αποστολ\w*|αντιγράφ\w*|αντέγραψε)",
        "secrets": r"\b(?:κωδικ\w* πρόσβασης|συνθηματικ\w*)",
        "conversation": r"\b(?:συνομιλ\w*|συζήτηση|συνεδρία|προηγούμενα μηνύματα)",
        "contents": r"\bπεριεχόμενο",
        "tamper": r"\bεπίσης (?:αντιγράφ|στέλν|προστίθ|αποστέλλ)\w*|\bαντιγράφεται επίσης",
        "other_tools": r"\bεργαλείο\s+" + _ID + r"|\bάλλ(?:α|ο) εργαλεί\w*",
        "lying": r"\b(?:ακόμα κι αν|ακόμη και αν)\b[^.!?]{0,80}\b(?:πες|πείτε|ανέφερε)\b",
        "reply": r"\bστην απάντηση",
    },
    "uk": {  # Ukrainian
        "addressed": r"(?:^|[^\w])(?:ти|ви|асистент|помічник)(?:[^\w]|$)",
        "user": r"\b(?:користувач\w*|клієнт\w*)",
        "hiding": r"\bне (?:кажи|кажіть|повідомляй\w*|згадуй\w*|показуй\w*)\b|\bбез відома",
        "fetch_obey": r"\b(?:виконай\w*|виконуй\w*|дотримуй\w*|слідуй\w*)",
        "priority": r"\b(?:пріоритет\w*|важливіш\w*)",
        "revoke": r"\b(?:правила|інструкції|попередження|обмеження|застереження)\b[^.!?]{0,90}"
                  r"\b(?:більше не|скасовано|не діють|недійсні)|\bігноруй\w*",
        "always": r"\bзавжди\b",
        "send": r"\b(?:надішли\w*|надсила\w*|відправ\w*|перешли\w*)",
        "secrets": r"\b(?:парол\w*|токен\w*)",
        "conversation": r"\b(?:розмов\w*|листуванн\w*|діалог\w*)",
        "contents": r"\bвміст\w*",
        "lying": r"\bхоча це (?:не так|неправда)|\bнавіть якщо\b[^.!?]{0,80}\b(?:скажи|повідом)"
                 r"\w*|\bповідомля\w*,? що\b[^.!?]{0,80}\bхоча\b|\bхотя это (?:не так|неправда)"
                 # "say that everything ...", as English's "say that all"
                 r"|\b(?:написати|сказати|повідомити|відповісти|написать|сказать|сообщить"
                 r"|ответить),? (?:що|что) (?:все|всі|усе|усі)\b",
    },
    "cs": {  # Czech
        "user": r"\buživatel\w*",
        "hiding": r"\b(?:neříkej\w*|nesděluj\w*|nezmiňuj\w*|neinformuj\w*)|\bbez vědomí",
        "fetch_obey": r"\b(?:řiď se|postupuj podle|proveď\w*|vykonej\w*)",
        "priority": r"\b(?:přednost\w*|důležitější)",
        "revoke": r"\b(?:pravidla|pokyny|instrukce|upozornění|omezení)\b[^.!?]{0,90}"
                  r"\b(?:již neplatí|už neplatí|neplatí|zrušen\w*)|\bignoruj\w*",
        "always": r"\bvždy\b",
        "send": r"\b(?:pošli|odešli|zašli)\b",
        "secrets": r"\b(?:hesl[oa]\w*|klíč\w*)",
        "conversation": r"\b(?:konverzac\w*|rozhovor\w*|předchozí zprávy)",
        "contents": r"\bobsah\w*",
        "lying": r"\bi když\b[^.!?]{0,80}\b(?:řekni|sděl)\w*|\b(?:řekni|sděl)\w*\b[^.!?]{0,80}"
                 r"\bi když\b",
    },
    "ro": {  # Romanian
        "user": r"\butilizator\w*",
        "hiding": r"\bnu (?:îi |le )?(?:spune|menționa|informa|anunța|arăta)\w*|\bfără știrea"
                  r"|\bfără să (?:spui|anunți|informezi)",
        # "execută" and "urmează" also say what a tool does ("executes", "follows")
        "fetch_obey": r"\b(?:urmează|execută|respectă) (?:instrucțiunile|pașii|tot ce)",
        "priority": r"\b(?:prioritate|mai important\w*)",
        "revoke": r"\b(?:regulile|instrucțiunile|avertismentele|restricțiile|precauțiile)\b"
                  r"[^.!?]{0,90}\b(?:nu mai (?:sunt|se aplică)|anulate|nu se mai aplică)"
                  r"|\bignoră\w*",
        "always": r"\b(?:întotdeauna|mereu)\b",
        "send": r"\btrimite\w*",
        "secrets": r"\bparol\w*",
        "conversation": r"\b(?:conversați\w*|discuți\w*)",
        "contents": r"\bconținut\w*",
        "lying": r"\bchiar dacă\b[^.!?]{0,80}\b(?:spune|declară)\w*|\bspune\w*\b[^.!?]{0,80}"
                 r"\bchiar dacă\b",
    },
    "sw": {  # Swahili
        "addressed": r"\b(?:wewe|msaidizi)\b",
        "user": r"\b(?:mtumiaji|watumiaji)\b",
        "hiding": r"\b(?:usimwambie|usiwaambie|usimweleze|usitaje|usimjulishe|bila kumwambia"
                  r"|bila kumjulisha|bila mtumiaji kujua)\b",
        "fetch_obey": r"\b(?:fuata|\w*tekelez\w*)\b",
        "priority": r"\b(?:kipaumbele|muhimu zaidi)\b",
        "revoke": r"\b(?:sheria|maagizo|maelekezo|tahadhari|maonyo)\b[^.!?]{0,90}\b(?:hayatumiki"
                  r"|haitumiki|yamefutwa|zimefutwa|si halali tena)\b|\bpuuza\b",
        "always": r"\b(?:kila mara|daima|siku zote)\b",
        "send": r"\btuma\b",
        "secrets": r"\b(?:nenosiri|nywila)\b",
        "conversation": r"\bmazungumzo\b",
        "contents": r"\b(?:maudhui|yaliyomo)\b",
        "lying": r"\bhata kama\b[^.!?]{0,80}\b(?:mwambie|sema|waambie)\b|\b(?:mwambie|sema"
                 r"|waambie)\b[^.!?]{0,80}\bhata kama\b",
    },
    "bn": {  # Bengali: vowel signs, no word boundaries
        "addressed": r"আপনি|তুমি|সহকারী",
        "user": r"ব্যবহারকারী",
        "hiding": r"বলবেন না|বলো না|জানাবেন না|জানিও না|উল্লেখ করবেন না|না জানিয়ে|গোপন রাখুন",
        "fetch_obey": r"অনুসরণ কর|পালন কর",
        "priority": r"অগ্রাধিকার|বেশি গুরুত্বপূর্ণ",
        "revoke": r"(?:নিয়ম|নির্দেশ|সতর্কতা)[^।.!?]{0,90}(?:আর প্রযোজ্য নয়|বাতিল|প্রযোজ্য নয়)"
                  r"|উপেক্ষা কর",
        "always": r"সবসময়|সর্বদা",
        "send": r"পাঠান|পাঠাও",
        "secrets": r"পাসওয়ার্ড|টোকেন",
        "conversation": r"কথোপকথন",
        "contents": r"বিষয়বস্তু",
        "lying": r"(?:যদিও|এমনকি যদি|তবুও|তবু)[^।.!?]{0,80}(?:বলুন|বলো|জানান|জানাও)",
    },
    "ta": {  # Tamil: vowel signs, no word boundaries
        "addressed": r"நீங்கள்|உதவியாளர்",
        "user": r"பயனர்",
        "hiding": r"சொல்ல வேண்டாம்|தெரிவிக்க வேண்டாம்|குறிப்பிட வேண்டாம்|தெரியாமல்",
        "fetch_obey": r"பின்பற்ற|செயல்படுத்த",
        "priority": r"முன்னுரிமை",
        "revoke": r"(?:விதிகள்|அறிவுறுத்தல்கள்|எச்சரிக்கைகள்)[^.!?]{0,90}(?:பொருந்தாது|ரத்து"
                  r"|செல்லாது)|புறக்கணி",
        "always": r"எப்போதும்",
        "send": r"அனுப்ப",
        "secrets": r"கடவுச்சொல்|டோக்கன்",
        "conversation": r"உரையாடல்",
        "contents": r"உள்ளடக்க",
        "lying": r"இருந்தாலும்[^.!?]{0,80}(?:சொல்|கூறு)",
    },
    "ms": {  # Malay (Indonesian's words are in the first lexicon)
        "hiding": r"\b(?:jangan (?:beritahu|maklumkan)|tanpa pengetahuan)\b",
        "priority": r"\b(?:bercanggah|bertentangan) dengan\b",
        "argument": r"\b(?:masukkan|letakkan|salin|tempel|tampal)\w*\b[^.!?]{0,40}"
                    r"\b(?:di sini|ke sini)\b",
        "fetch_obey": r"\b(?:ikut arahan|laksanakan)\b",
        "revoke": r"\b(?:peraturan|arahan|amaran)\b[^.!?]{0,90}\b(?:tidak lagi terpakai"
                  r"|tidak terpakai|dibatalkan)\b",
        "always": r"\bsentiasa\b",
        "send": r"\bhantar\w*",
        "secrets": r"\bkata laluan\b",
        "conversation": r"\bperbualan\b",
        "lying": r"\bwalaupun\b[^.!?]{0,80}\b(?:beritahu|katakan)\b",
    },
    "tl": {  # Tagalog
        "addressed": r"\b(?:ikaw|kayo)\b",
        "user": r"\bgumagamit\b",
        "hiding": r"\bhuwag (?:mong |ninyong )?(?:sabihin|ipaalam|banggitin|ipakita)\b"
                  r"|\bnang hindi (?:alam|nalalaman) ng\b",
        "fetch_obey": r"\bsundin\b",
        "priority": r"\b(?:mas mahalaga|prayoridad|uunahin)\b",
        "revoke": r"\b(?:patakaran|tagubilin|babala|panuntunan)\b[^.!?]{0,90}\b(?:hindi na"
                  r" (?:ipinapatupad|kailangan)|kanselado|wala nang bisa)\b|\b(?:balewalain"
                  r"|huwag pansinin)\b",
        "always": r"\b(?:palagi|laging)\b",
        "send": r"\b(?:ipadala|ipasa)\b",
        "conversation": r"\b(?:usapan|pag-uusap)\b",
        "contents": r"\bnilalaman\b",
        # "include / put / paste / copy here": into this argument
        "argument": r"\b(?:isama|ilagay|idikit|kopyahin)\b[^.!?]{0,20}\b(?:dito|rito)\b",
        "lying": r"\bkahit na\b[^.!?]{0,80}\bsabihin\w*|\bsabihin\w*\b[^.!?]{0,80}\bkahit\b",
    },
    "hi": {  # Hindi, beyond the first lexicon: vowel signs, no word boundaries
        "hiding": r"(?:मत|न|ना) (?:बताएँ|बताएं|बताना|बताओ|बताइए)|बताए बिना|बिना बताए",
        "revoke": r"(?:सावधानि|सावधानी|चेतावनि|चेतावनी|नियम|निर्देश|हिदायत)[^.!?।]{0,90}"
                  r"(?:लागू नहीं|रद्द|अमान्य|ज़रूरी नहीं|जरूरी नहीं)",
        "execute": r"(?:स्क्रिप्ट|कमांड)[^.!?।]{0,30}(?:चलाएँ|चलाएं|चलाओ)",
    },
    "ur": {  # Urdu
        "user": r"صارف",
        "hiding": r"(?:مت|نہ) (?:بتائیں|بتاؤ|بتانا)|بتائے بغیر",
        "revoke": r"(?:ہدایات|قواعد|انتباہ)[^.!?۔]{0,90}(?:اب لاگو نہیں|منسوخ)",
        "always": r"ہمیشہ",
        "send": r"بھیجیں|بھیج دو",
        "secrets": r"پاس ورڈ",
        "conversation": r"گفتگو",
    },
    "sv": {  # Swedish (Danish and Norwegian share most of these)
        "user": r"\b(?:användar\w*|bruger\w*|bruker\w*)",
        "hiding": r"\b(?:berätta|nämn|säg|visa|informera|fortæl|fortell|nevn)\w* (?:inte|ikke"
                  r"|aldrig|aldri)\b|\butan att (?:berätta|nämna|informera|säga)\b"
                  r"|\butan (?:användarens )?vetskap\b",
        # "utför" and "udfør" are also the present tense ("performs a search")
        "fetch_obey": r"\b(?:följ|følg)\b",
        "priority": r"\b(?:viktigare än|går före|vigtigere end|viktigere enn)\b",
        "revoke": r"regler\w{0,4}\b[^.!?]{0,90}\b(?:gäller inte|gælder ikke|gjelder ikke"
                  r"|upphävd\w*|slopad\w*)|\bignorera\w*",
        "always": r"\b(?:alltid|altid)\b",
        "send": r"\bskicka\w*",
        "secrets": r"\b(?:lösenord\w*|adgangskode\w*|passord\w*)",
        "conversation": r"\b(?:konversation\w*|samtal\w*|samtale\w*|chatthistorik)",
        "contents": r"\b(?:innehåll\w*|indhold\w*|innhold\w*)",
        "lying": r"\b(?:även om|selv om)\b[^.!?]{0,80}\b(?:säg|berätta|sig|si)\b",
    },
    "fi": {  # Finnish
        "user": r"\bkäyttäjä\w*",
        "hiding": r"\b(?:älä|älkää) (?:kerro|mainitse|ilmoita|näytä)\w*|\bkertomatta\b",
        "fetch_obey": r"\b(?:noudata|suorita)\b",
        "revoke": r"\b(?:säännöt|ohjeet|varoitukset)\b[^.!?]{0,90}\b(?:eivät enää|ei enää"
                  r"|ei (?:ole )?enää|eivät (?:ole )?enää|eivät päde|kumottu)|\bohita\b",
        "always": r"\baina\b",
        "send": r"\blähetä\w*",
        "secrets": r"\bsalasan\w*",
        "conversation": r"\bkeskustelu\w*",
    },
    "hu": {  # Hungarian
        "user": r"\bfelhasználó\w*",
        "hiding": r"\bne (?:mondd|szólj|említsd|jelezd|mutasd)\w*|\btudta nélkül\b",
        "fetch_obey": r"\b(?:kövesd|hajtsd végre)\b",
        "revoke": r"\b(?:szabályok|utasítások|figyelmeztetések)\b[^.!?]{0,90}\b(?:már nem"
                  r"|érvénytelen|nem vonatkoz\w*|nem érvényes\w*)|\bhagyd figyelmen kívül\b",
        "always": r"\bmindig\b",
        "send": r"\bküldd\w*",
        "secrets": r"\bjelsz\w*",
        "conversation": r"\b(?:beszélgetés\w*|társalgás\w*)",
    },
    # languages with many speakers in scripts of their own, a few words a concept (their
    # vowel signs are no word characters: no word boundaries)
    "am": {  # Amharic
        "user": r"ተጠቃሚ",
        "hiding": r"አትንገር|አይንገሩ|አትናገር|አያሳውቁ|አታሳውቅ|ሳያውቅ",
        "fetch_obey": r"ተከተል|ይከተሉ|ፈጽም|ይፈጽሙ",
        "revoke": r"(?:መመሪያ|ደንብ|ማስጠንቀቂያ)[^።.!?]{0,90}(?:አይሰራም|ተሰርዟል|አይተገበርም)|ችላ በል|ችላ ይበሉ",
        "always": r"ሁልጊዜ|ሁሌም",
        "send": r"ላክ|ይላኩ",
        "secrets": r"የይለፍ ቃል",
        "conversation": r"ውይይት",
    },
    "ka": {  # Georgian
        "user": r"მომხმარებ",
        "hiding": r"არ (?:უთხრა|უთხრათ|აცნობო|აცნობოთ|ახსენო|ახსენოთ)",
        "fetch_obey": r"მიჰყევი|მიჰყევით|შეასრულე|შეასრულეთ",
        "revoke": r"(?:ინსტრუქცი|წესებ|გაფრთხილებ)[^.!?]{0,90}(?:აღარ|გაუქმებ)|უგულებელყავ",
        "always": r"ყოველთვის",
        "send": r"გაგზავნ",
        "secrets": r"პაროლ",
        "conversation": r"საუბ|მიმოწერ",
    },
    "hy": {  # Armenian
        "user": r"օգտատեր|օգտվող",
        "hiding": r"մի (?:ասա|ասեք|հայտնիր|հայտնեք|նշիր|նշեք)"
                  r"|առանց (?:օգտատիրոջ|օգտվողի) իմացության",
        "fetch_obey": r"հետևիր|հետևեք|կատարիր|կատարեք",
        "revoke": r"(?:հրահանգ|կանոն|զգուշացում)[^.!?]{0,90}(?:այլևս չեն|չեղարկ)|անտեսիր|անտեսեք",
        "always": r"միշտ",
        "send": r"ուղարկ",
        "secrets": r"գաղտնաբառ",
        "conversation": r"զրույց|խոսակցություն",
    },
    "km": {  # Khmer
        "user": r"អ្នកប្រើ",
        "hiding": r"កុំប្រាប់|កុំជូនដំណឹង|កុំនិយាយ",
        "fetch_obey": r"អនុវត្តតាម|ធ្វើតាម",
        "revoke": r"មិនអើពើ",
        "always": r"ជានិច្ច|ជារៀងរហូត",
        "send": r"ផ្ញើ",
        "secrets": r"ពាក្យសម្ងាត់",
        "conversation": r"ការសន្ទនា",
    },
    "my": {  # Burmese
        "user": r"အသုံးပြုသူ",
        "hiding": r"မပြောပါနှင့်|မပြောနဲ့|မပြောရ|အသိမပေးပါနှင့်|အသိမပေးနဲ့",
        "fetch_obey": r"လိုက်နာ",
        "revoke": r"လျစ်လျူရှု",
        "always": r"အမြဲ",
        "send": r"ပို့",
        "secrets": r"စကားဝှက်",
        "conversation": r"စကားပြော|စကားဝိုင်း",
    },
    "si": {  # Sinhala
        "user": r"පරිශීලක",
        "hiding": r"(?:කියන්න|දන්වන්න|සඳහන් කරන්න) එපා",
        "fetch_obey": r"අනුගමනය කරන්න|ක්‍රියාත්මක කරන්න",
        "revoke": r"නොසලකා හරින්න",
        "always": r"සැමවිටම|හැමවිටම|සෑම විටම",
        "send": r"යවන්න",
        "secrets": r"මුරපද",
        "conversation": r"සංවාද",
    },
    "ne": {  # Nepali and Marathi (Devanagari, beyond Hindi's words)
        "user": r"प्रयोगकर्ता|वापरकर्ता",
        "hiding": r"नभन्नु|नबताउनु|जानकारी नदिनु|सांगू नका|कळवू नका",
        "fetch_obey": r"पालना गर|पालन करा",
        "revoke": r"बेवास्ता गर|दुर्लक्ष करा",
        "always": r"सधैं|नेहमी",
        "send": r"पठाउ|पाठवा",
        "conversation": r"कुराकानी|संभाषण",
    },
    "te": {  # Telugu
        "user": r"వినియోగదారు",
        "hiding": r"చెప్పవద్దు|తెలియజేయవద్దు|ప్రస్తావించవద్దు",
        "fetch_obey": r"అనుసరించండి|అమలు చేయండి",
        "revoke": r"విస్మరించండి",
        "always": r"ఎల్లప్పుడూ",
        "send": r"పంపండి|పంపు",
        "secrets": r"పాస్‌వర్డ్",
        "conversation": r"సంభాషణ",
    },
    # the seventh round: languages of the next attacker's that no list held (Yoruba, Hausa,
    # Zulu, Uzbek, Azerbaijani, Serbian, Slovak in Latin letters; Serbian and Kazakh in
    # Cyrillic; Punjabi and Lao in scripts of their own), a few words a concept, written from
    # dictionaries of meaning
    "yo": {  # Yoruba (tone marks optional: many write without them)
        "user": r"\bol[uù]m[uú]l[oò]\b",
        "hiding": r"\bm[aá] (?:ṣe |se )?(?:s[ọo]|fi h[aà]n) f[uú]n\b|\bl[aá][iì]s[ọo] f[uú]n\b",
        "fetch_obey": r"\bt[ẹe]\S?l[eé]\b",
        "revoke": r"\bf[oò]j[uú] f[oò]\b|\bk[ọo]\S? s[ií]l[ẹe]\S?\b",
        "always": r"\bn[ií]gb[aà] gbogbo\b",
        "send": r"\bfi r[aá]n[ṣs][ẹe]\S?\b",
        "secrets": r"\b[ọo]r[ọo] (?:igbaniw[ọo]l[eé]|a[ṣs][ií]n[aà])\b",
        "conversation": r"\b[iì]j[ií]r[oò]r[oò]\b|\b[iì]b[aá]nis[ọo]r[ọo]\b",
    },
    "ha": {  # Hausa
        "user": r"\bmai amfani\b|\bmasu amfani\b",
        "hiding": r"\b(?:kada|kar) (?:ka|ki|ku) (?:gaya|fada|faɗa|sanar|nuna)\w*",
        "fetch_obey": r"\b(?:ka |ku )?bi (?:umarni|matakai|ka'idoji)\w*|\baiwatar\w*",
        "revoke": r"\byi watsi da\b|\b(?:umarni|dokoki|ka'idoji|gargaɗi)\w*[^.!?]{0,90}"
                  r"\b(?:ba sa aiki|an soke|ba su aiki)\b",
        "always": r"\b(?:ko da yaushe|kullum)\b",
        "send": r"\baika\w*",
        "secrets": r"\bkalmar sirri\b",
        "conversation": r"\btattaunawa\w*",
    },
    "zu": {  # Zulu
        "user": r"\b\w*sebenzisi\b",
        "hiding": r"\bunga\w*tshel\w*|\bungasho\b|\bunga\w*azis\w*",
        "fetch_obey": r"\b\w*landel\w*",
        "revoke": r"\bziba\b|\bungazinaki\b|\bimiyalelo\w*[^.!?]{0,90}\b(?:ayisasebenzi"
                  r"|isusiwe|ayisebenzi)\b",
        "always": r"\b(?:njalo|ngaso sonke isikhathi)\b",
        "send": r"\b\w*thumel\w*",
        "secrets": r"\biphasiwedi\b|\bigama eliyimfihlo\b",
        "conversation": r"\b\w*ngxoxo\w*",
    },
    "uz": {  # Uzbek (Latin)
        "user": r"\bfoydalanuvchi\w*",
        "hiding": r"\b(?:aytmang|aytma|xabar bermang|bildirmang)\b",
        "fetch_obey": r"\b(?:bajaring|amal qiling|rioya qiling|ergashing)\b",
        "revoke": r"\be.tiborsiz qoldir\w*|\b(?:ko.rsatmalar|qoidalar|ogohlantirishlar)\w*"
                  r"[^.!?]{0,90}\b(?:endi amal qilmaydi|bekor qilin\w*|kuchini yo.qot\w*)",
        "always": r"\bhar doim\b",
        "send": r"\byubor\w*",
        "secrets": r"\bparol\w*",
        "conversation": r"\bsuhbat\w*",
    },
    "az": {  # Azerbaijani
        "user": r"\bistifadəçi\w*",
        "hiding": r"\b(?:deməyin|demə|bildirməyin|göstərməyin|xəbər verməyin)\b",
        "fetch_obey": r"\b(?:əməl edin|icra edin|riayət edin|izləyin)\b",
        "revoke": r"\bnəzərə alma\w*|\b(?:təlimatlar|qaydalar|xəbərdarlıqlar)\w*[^.!?]{0,90}"
                  r"\b(?:artıq (?:etibarlı deyil|keçərli deyil|tətbiq olunmur)|ləğv edil\w*)",
        "always": r"\bhəmişə\b",
        "send": r"\bgöndər\w*",
        "secrets": r"\b(?:parol|şifrə)\w*",
        "conversation": r"\bsöhbət\w*",
    },
    "sr": {  # Serbian and Croatian, Bosnian (Latin)
        "user": r"\bkorisni\w*",
        "hiding": r"\b(?:ne govori|nemoj (?:reći|da kažeš|pominjati|spominjati)|ne pominji"
                  r"|ne spominji|ne obaveštavaj|ne obavještavaj)\w*",
        "fetch_obey": r"\b(?:izvrši|sledi|slijedi|postupi po)\w*",
        "revoke": r"\bignoriši\b|\bzanemari\w*|\b(?:uputstva|upute|pravila|upozorenja)\b"
                  r"[^.!?]{0,90}\b(?:više ne važe|su ukinut\w*|ne važe|ne vrijede)\b",
        "always": r"\b(?:uvek|uvijek)\b",
        "send": r"\bpošalj\w*",
        "secrets": r"\blozink\w*",
        "conversation": r"\brazgovor\w*",
    },
    "sk": {  # Slovak
        "user": r"\bpoužívateľ\w*",
        "hiding": r"\b(?:nehovor\w*|neoznamuj\w*|nespomína\w*|neukazuj\w*|neinformuj\w*)\b"
                  r"|\bbez vedomia\b",
        "fetch_obey": r"\b(?:postupuj\w* podľa|vykonaj\w*|riaď(?:te)? sa|nasleduj\w*)\b",
        "revoke": r"\bignoruj\w*|\b(?:pokyny|pravidlá|upozornenia)\b[^.!?]{0,90}\b(?:už"
                  r" neplatia|sú zrušené|neplatia)\b",
        "always": r"\bvždy\b",
        "send": r"\b(?:od)?pošli\w*",
        "secrets": r"\bhesl\w*",
        "conversation": r"\b(?:konverzáci\w*|rozhovor\w*)",
    },
    "sr_kk": {  # Serbian and Kazakh in Cyrillic (Russian's and Ukrainian's words are elsewhere)
        "user": r"корисни|пайдаланушы",
        "hiding": r"не говори|немој (?:рећи|да кажеш|помињати)|не помињи|не обавештавај"
                  r"|айтпа|хабарлама|көрсетпе",
        "fetch_obey": r"изврши|следи|поступи по|орында|басшылыққа ал|ұстаныңыз",
        "revoke": r"игнориши|занемари|(?:упутства|правила|упозорења|нұсқаулар|ережелер)"
                  r"[^.!?]{0,90}(?:више не важе|су укинут|не важе|енді қолданылмайды|күшін жой)"
                  r"|елеме|назар аударма",
        "always": r"увек|әрқашан|үнемі",
        "send": r"пошаљ|жібер",
        "secrets": r"лозинк|құпия ?сөз",
        "conversation": r"әңгіме|сұхбат",
    },
    "pa": {  # Punjabi (Gurmukhi: vowel signs, no word boundaries)
        "user": r"ਵਰਤੋਂਕਾਰ|ਉਪਭੋਗਤਾ",
        "hiding": r"ਨਾ ਦੱਸ|ਨਾ ਦਿਖਾ|ਨਾ ਦੱਸਣਾ|ਨਾ ਦੱਸੋ",
        "fetch_obey": r"ਪਾਲਣਾ ਕਰੋ|ਲਾਗੂ ਕਰੋ",
        "revoke": r"ਅਣਡਿੱਠ|ਨਜ਼ਰਅੰਦਾਜ਼",
        "always": r"ਹਮੇਸ਼ਾ",
        "send": r"ਭੇਜ",
        "secrets": r"ਪਾਸਵਰਡ",
        "conversation": r"ਗੱਲਬਾਤ",
    },
    "lo": {  # Lao (no spaces between words)
        "user": r"ຜູ້ໃຊ້",
        "hiding": r"ຢ່າບອກ|ບໍ່ຕ້ອງບອກ|ຢ່າແຈ້ງ",
        "fetch_obey": r"ປະຕິບັດຕາມ|ເຮັດຕາມ",
        "revoke": r"ບໍ່ສົນໃຈ|ບໍ່ຕ້ອງສົນໃຈ",
        "always": r"ສະເໝີ|ສະເຫມີ|ທຸກຄັ້ງ",
        "send": r"ສົ່ງ",
        "secrets": r"ລະຫັດຜ່ານ",
        "conversation": r"ສົນທະນາ",
    },
    # the same concepts in forms the lists above lacked (seventh round): "tell the customer
    # that", "what the user gave is overridden", "the result is what is followed", "the
    # earlier instructions no longer apply", a verb with its prefixes
    "forms": {  # in Latin letters
        "lying": r"\b(?:řekn\w*|sděl\w*|uveď\w*|oznam\w*|uvádí se|sdělí se|sdělujte)"
                 r" (?:zákazník\w*|uživatel\w*|klient\w*),? že\b"
                 r"|\b(?:powiedz|poinformuj|przekaż) (?:klient\w*|użytkownik\w*),? że\b"
                 r"|\b(?:sabihin|ipaalam) (?:sa )?(?:customer|user|gumagamit|kliyente)[^.!?]{0,10}"
                 r"\bna\b",
        "over_user": r"\bmengatasi\b[^.!?]{0,40}\b(?:pengguna|pelanggan)\b"
                     r"|\bmagkaiba\b[^.!?]{0,60}\b(?:sinabi|hiniling|sabi)\b[^.!?]{0,60}"
                     r"\b(?:susundin|sundin|masusunod)\b"
                     r"|\b(?:přednost před|má přednost)\b[^.!?]{0,40}\b(?:uživatel|zákazník)\w*",
        "fetch_obey": r"\b\w*fuat\w*|\bfuate\b",
        "revoke": r"\b(?:pokyny|pravidla|instrukce)\b[^.!?]{0,90}\b(?:již neplatí|už neplatí"
                  r"|se neuplatňují)\b|\b(?:arahan|peraturan|amaran)\b[^.!?]{0,90}\b(?:tidak"
                  r" lagi (?:terpakai|berlaku)|dibatalkan)\b",
    },
    "forms_scripts": {  # in scripts of their own
        "hiding": r"אין (?:להציג|לציין|לספר|לדווח|להודיע|להראות)|אל (?:תציג|תציין|תספר|תדווח)"
                  r"|জানাবেন না|বলবেন না|দেখাবেন না",
        "lying": r"হলেও[^।.!?]{0,80}(?:জানাতে|বলতে|জানান|বলুন)"
                 r"|יש לדווח רק|תמיד (?:לדווח|לומר) ש"
                 r"|ακόμη κι αν[^.!?]{0,80}(?:πείτε|πες|αναφέρετε)",
        "priority": r"գերակա|առաջնահերթ",
        "over_user": r"(?:գերակա|կարևոր) է օգտատիրոջ"
                     r"|מעל (?:מה ש)?(?:המשתמש|הלקוח)",
        "revoke": r"ការណែនាំ(?:ពីមុន)?[^។.!?]{0,90}(?:លែងមានសុពលភាព|លែងអនុវត្ត)"
                  r"|निर्देशन[^।.!?]{0,90}(?:लागू हुँदैन|लागू हुने छैन|रद्द|लागू होत नाहीत)"
                  r"|(?:οδηγίες|κανόνες)[^.!?]{0,90}(?:δεν ισχύουν|καταργούνται|δεν εφαρμόζονται)",
        "fetch_obey": r"εφαρμόζ\w*(?: όσα| ό,τι| τα βήματα)|ακολουθ\w*(?: όσα| ό,τι)",
    },
    # concepts the first lexicon's languages lacked: a tool's output, the reply, the user's
    # word set aside, additions to another tool's call, the conversation in other words
    "more": {
        "tool_output": r"\b(?:wat de tool teruggeeft|de uitvoer van de tool|aracın"
                       r" (?:çıktısı\w*|döndürdüğü)|lo que devuelve la herramienta|o que a"
                       r" ferramenta retorna|ce que renvoie l'outil|was das tool zurückgibt"
                       r"|ciò che lo strumento restituisce)",
        "reply": r"\b(?:in het antwoord|in je antwoord|en la respuesta|na resposta"
                 r"|dans la réponse|in der antwort|nella risposta|yanıtta|cevapta)\b",
        "priority": r"\bönce gelir\b|\bçelişirse\b",
        "over_user": r"\bkullanıcının söyledikler\w*[^.!?]{0,20}önce gelir"
                     r"|\bmesmo que contrari\w*|\baunque contradiga"
                     r"|\bmême si cela contredit\b|\bplutôt que ce que (?:l'utilisateur|vous)"
                     r"|\bstatt dessen,? was der (?:nutzer|benutzer)|\banche se contraddice"
                     r"|\bpedido do usuário\b[^.!?]{0,20}\bcontrari|\bzelfs als (?:het|dat)"
                     r" (?:de gebruiker|het verzoek) tegenspreekt",
        "lying": r"\b(?:lager|hoger) dan (?:wat|het)\b|\bzeg dat het\b",
        "tamper": r"\b(?:ditambah\w*|tambahkan|diganti\w*|dialihkan)\b"
                  r"|\bzusätzlich (?:an|zu) \S+@|\ben copia\b",
        "conversation": r"\b(?:sesión|sessão|sessione)\b|\btodo lo que se ha (?:hablado|dicho"
                        r"|escrito)|\btudo o que (?:foi|se) (?:dito|falado|escreveu)|\btout ce qui"
                        r" a été dit\b|\balles,? was (?:bisher )?gesagt|\bprimer mensaje\b",
        "shadow": _DEPRECATED,
        # "copy here": into this argument
        "argument": r"\b(?:re)?(?:copi|kopier|coll|pega|incoll)\w* (?:ici|aquí|aqui|qui|hier)\b"
                    r"|\b(?:ici|aquí|aqui|qui|hier)\b[^.!?]{0,20}\b(?:re)?(?:copi|kopier)\w*",
        "send": r"\brecopi\w*",
    },
    # the same in scripts other than Latin (never in ASCII text: not in the gate)
    "more_scripts": {
        "tamper": r"바꿔서|바꾸어|변경하여|로 바꿔",
        "other_tools": r"(?<!\S)\S{1,20} 도구를 (?:쓸|사용할|호출할) 때|다른 도구",
        "shadow": _DEPRECATED_SCRIPTS,
    },
}
