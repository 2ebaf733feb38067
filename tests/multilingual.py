"""Small texts in 25 languages, written for the tests (the same short news item in each: a city
council approves a plan for public transport), keyed by language tag.

The keys are ISO 639-1 codes, but for ``zh-Hant``: Chinese in Traditional characters (Big5
writes those, not Simplified ones); :func:`language_of` gives the code a guess should return.

Each legacy encoding a page may come in can write at least one of these texts whole:
cp1251 (ru, uk, bg), koi8-r (ru, bg), cp1250 and ISO-8859-2 (pl, cs, hu), cp1256 (ar),
ISO-8859-7 (el), GB18030 (zh, zh-Hant), Big5 (zh-Hant), Shift_JIS (ja), EUC-KR (ko);
:data:`ENCODABLE` lists them and ``tests/test_language.py`` checks it.
"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    "en": (
        "The city council approved a new plan for public transport. Residents had waited a "
        "long time for buses to run more often, at night as well. The first lines will open "
        "this spring."
    ),
    "ru": (
        "Городской совет утвердил новый план развития общественного транспорта. Жители давно "
        "ждали, что автобусы будут ходить чаще и по ночам. Первые маршруты откроются уже "
        "этой весной."
    ),
    "uk": (
        "Міська рада ухвалила новий план розвитку громадського транспорту. Мешканці давно "
        "чекали, що автобуси їздитимуть частіше і вночі. Перші маршрути відкриються вже "
        "цієї весни."
    ),
    "bg": (
        "Общинският съвет одобри нов план за развитие на градския транспорт. Жителите "
        "отдавна очакваха автобусите да минават по-често и през нощта. Първите линии ще "
        "тръгнат още тази пролет."
    ),
    "fa": (
        "شورای شهر طرح تازه‌ای برای توسعه حمل و نقل عمومی تصویب کرد. ساکنان مدت‌ها منتظر "
        "بودند که اتوبوس‌ها بیشتر و در شب هم کار کنند. نخستین خط‌ها همین بهار راه‌اندازی "
        "می‌شوند."
    ),
    "ar": (
        "وافق مجلس المدينة على خطة جديدة لتطوير النقل العام. انتظر السكان طويلا أن تمر "
        "الحافلات بشكل أكثر تكرارا وفي الليل أيضا. ستبدأ الخطوط الأولى العمل في هذا الربيع."
    ),
    "pl": (
        "Rada miasta przyjęła nowy plan rozwoju transportu publicznego. Mieszkańcy od dawna "
        "czekali, aż autobusy będą jeździć częściej, także w nocy. Pierwsze linie ruszą już "
        "tej wiosny."
    ),
    "pt": (
        "A câmara municipal aprovou um novo plano para o transporte público. Os moradores "
        "esperavam há muito tempo que os autocarros passassem com mais frequência, também à "
        "noite. As primeiras linhas começam a funcionar nesta primavera."
    ),
    "ca": (
        "L'ajuntament ha aprovat un nou pla per al transport públic de la ciutat. Els veïns "
        "feia temps que esperaven que els autobusos passessin més sovint, també a la nit. Les "
        "primeres línies començaran a funcionar aquesta primavera."
    ),
    "es": (
        "El ayuntamiento aprobó un nuevo plan para el transporte público de la ciudad. Los "
        "vecinos llevaban mucho tiempo esperando que los autobuses pasaran más a menudo, "
        "también por la noche. Las primeras líneas empezarán a funcionar esta primavera."
    ),
    "zh": (
        "市议会批准了一项发展公共交通的新计划。居民们一直希望公交车能更频繁地运行，"
        "夜间也能乘坐。第一批线路将在今年春天开通。"
    ),
    "zh-Hant": (
        "市議會通過了一項發展公共交通的新計畫。居民們一直希望公車能更頻繁地行駛，"
        "夜間也能搭乘。第一批路線將在今年春天開通。"
    ),
    "ja": (
        "市議会は公共交通を発展させる新しい計画を承認しました。住民たちは、バスがもっと"
        "頻繁に、夜にも走ることを長い間待っていました。最初の路線はこの春に運行を始めます。"
    ),
    "ko": (
        "시의회는 대중교통을 발전시키기 위한 새로운 계획을 승인했습니다. 주민들은 버스가 "
        "더 자주, 밤에도 다니기를 오랫동안 기다려 왔습니다. 첫 노선은 올봄에 운행을 "
        "시작합니다."
    ),
    "el": (
        "Το δημοτικό συμβούλιο ενέκρινε ένα νέο σχέδιο για τις δημόσιες συγκοινωνίες. Οι "
        "κάτοικοι περίμεναν καιρό να περνούν τα λεωφορεία πιο συχνά, ακόμη και τη νύχτα. Οι "
        "πρώτες γραμμές θα ξεκινήσουν αυτή την άνοιξη."
    ),
    "he": (
        "מועצת העיר אישרה תוכנית חדשה לפיתוח התחבורה הציבורית. התושבים חיכו זמן רב "
        "שהאוטובוסים יעברו לעתים קרובות יותר, גם בלילה. הקווים הראשונים יתחילו לפעול באביב "
        "הזה."
    ),
    "tr": (
        "Belediye meclisi toplu taşımanın geliştirilmesi için yeni bir planı onayladı. "
        "Mahalle sakinleri otobüslerin daha sık ve gece de çalışmasını uzun zamandır "
        "bekliyordu. İlk hatlar bu bahar hizmete girecek."
    ),
    "de": (
        "Der Stadtrat hat einen neuen Plan für den öffentlichen Nahverkehr beschlossen. Die "
        "Bewohner warten schon lange darauf, dass die Busse öfter fahren, auch in der Nacht. "
        "Die ersten Linien starten noch in diesem Frühjahr."
    ),
    "fr": (
        "Le conseil municipal a adopté un nouveau plan pour les transports publics. Les "
        "habitants attendaient depuis longtemps que les bus passent plus souvent, même la "
        "nuit. Les premières lignes ouvriront dès ce printemps."
    ),
    "it": (
        "Il consiglio comunale ha approvato un nuovo piano per il trasporto pubblico. Gli "
        "abitanti aspettavano da tempo che gli autobus passassero più spesso, anche di notte. "
        "Le prime linee partiranno già questa primavera."
    ),
    "nl": (
        "De gemeenteraad heeft een nieuw plan voor het openbaar vervoer goedgekeurd. De "
        "bewoners wachtten al lang op bussen die vaker rijden, ook 's nachts. De eerste "
        "lijnen gaan dit voorjaar al van start."
    ),
    "cs": (
        "Městská rada schválila nový plán rozvoje veřejné dopravy. Obyvatelé dlouho čekali, "
        "až budou autobusy jezdit častěji, a to i v noci. První linky se rozjedou už letos "
        "na jaře."
    ),
    "hu": (
        "A városi közgyűlés új tervet fogadott el a tömegközlekedés fejlesztésére. A lakók "
        "régóta várták, hogy a buszok gyakrabban járjanak, éjszaka is. Az első járatok már "
        "idén tavasszal elindulnak."
    ),
    "vi": (
        "Hội đồng thành phố đã thông qua một kế hoạch mới để phát triển giao thông công cộng. "
        "Người dân đã chờ đợi từ lâu để xe buýt chạy thường xuyên hơn, kể cả vào ban đêm. "
        "Những tuyến đầu tiên sẽ hoạt động ngay trong mùa xuân này."
    ),
    "th": (
        "สภาเมืองได้อนุมัติแผนใหม่เพื่อพัฒนาระบบขนส่งสาธารณะ "
        "ชาวบ้านรอคอยมานานให้รถเมล์วิ่งบ่อยขึ้นและวิ่งในเวลากลางคืนด้วย "
        "เส้นทางแรกจะเปิดให้บริการในฤดูใบไม้ผลินี้"
    ),
    "hi": (
        "नगर परिषद ने सार्वजनिक परिवहन के विकास के लिए एक नई योजना को मंज़ूरी दी है। लोग लंबे "
        "समय से इंतज़ार कर रहे थे कि बसें अधिक बार और रात में भी चलें। पहली लाइनें इसी वसंत "
        "में शुरू होंगी।"
    ),
}

#: Legacy encoding (Python codec name) -> the keys of :data:`TEXTS` it writes whole.
ENCODABLE: dict[str, tuple[str, ...]] = {
    "cp1251": ("ru", "uk", "bg"),
    "koi8_r": ("ru", "bg"),
    "cp1250": ("pl", "cs", "hu"),
    "iso8859_2": ("pl", "cs", "hu"),
    "cp1256": ("ar",),
    "iso8859_7": ("el",),
    "gb18030": ("zh", "zh-Hant"),
    "big5": ("zh-Hant",),
    "shift_jis": ("ja",),
    "euc_kr": ("ko",),
}


def language_of(key: str) -> str:
    """The ISO 639-1 code of a key of :data:`TEXTS` ("zh-Hant" -> "zh")."""
    return key.split("-", 1)[0]
