/**
 * The language and country codes a SCORM 2004 language_type may use (RTE 4.1.1.3): ISO 639-1 and
 * ISO 639-2 language codes, ISO 3166-1 alpha-2 country codes and the registered IANA tags, as the
 * ADL reference data model of the SCORM 2004 4th edition test suite lists them (Apache License 2.0;
 * tests/fixtures/scorm-cts/README.md). Codes are facts; these are the lists its conformance test expects.
 */
const set = (lines: string[]) => new Set(lines.join(" ").split(" "));

/** ISO 639-1 (two letters). */
export const LANGUAGES_2 = set([
  "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce",
  "ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr",
  "fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is",
  "it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln",
  "lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na nb nd ne ng nl nn no nr",
  "nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si",
  "sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt",
  "tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu",
]);

/** ISO 639-2 (three letters, bibliographic and terminology codes). */
export const LANGUAGES_3 = set([
  "aar abk ace ach ada ady afa afh afr aka akk alb ale alg amh ang apa ara arc arg arm arn arp art",
  "arw asm ast ath aus ava ave awa aym aze bad bai bak bal bam ban baq bas bat bej bel bem ben ber",
  "bho bih bik bin bis bla bnt bod bos bra bre btk bua bug bul bur byn cad cai car cat cau ceb cel",
  "ces cha chb che chg chi chk chm chn cho chp chr chu chv chy cmc cop cor cos cpe cpf cpp cre crh",
  "crp csb cus cym cze dak dan dar day del den deu dgr din div doi dra dsb dua dum dut dyu dzo efi",
  "egy eka ell elx eng enm epo est eus ewe ewo fan fao fas fat fij fil fin fiu fon fra fre frm fro",
  "fry ful fur gaa gay gba gem geo ger gez gil gla gle glg glv gmh goh gon gor got grb grc gre grn",
  "guj gwi hai hat hau haw heb her hil him hin hit hmn hmo hrv hsb hun hup hye iba ibo ice ido iii",
  "ijo iku ile ilo ina inc ind ine inh ipk ira iro isl ita jav jbo jpn jpr jrb kaa kab kac kal kam",
  "kan kar kas kat kau kaw kaz kbd kha khi khm kho kik kin kir kmb kok kom kon kor kos kpe krc kro",
  "kru kua kum kur kut lad lah lam lao lat lav lez lim lin lit lol loz ltz lua lub lug lui lun luo",
  "lus mac mad mag mah mai mak mal man mao map mar mas may mdf mdr men mga mic min mis mkd mkh mlg",
  "mlt mnc mni mno moh mol mon mos mri msa mul mun mus mwl mwr mya myn myv nah nai nap nau nav nbl",
  "nde ndo nds nep new nia nic niu nld nno nob nog non nor nso nub nwc nya nym nyn nyo nzi oci oji",
  "ori orm osa oss ota oto paa pag pal pam pan pap pau peo per phi phn pli pol pon por pra pro pus",
  "que raj rap rar roa roh rom ron rum run rus sad sag sah sai sal sam san sas sat scc scn sco scr",
  "sel sem sga sgn shn sid sin sio sit sla slk slo slv sma sme smi smj smn smo sms sna snd snk sog",
  "som son sot spa sqi srd srp srr ssa ssw suk sun sus sux swa swe syr tah tai tam tat tel tem ter",
  "tet tgk tgl tha tib tig tir tiv tkl tlh tli tmh tog ton tpi tsi tsn tso tuk tum tup tur tut tvl",
  "twi tyv udm uga uig ukr umb und urd uzb vai ven vie vol vot wak wal war was wel wen wln wol xal",
  "xho yao yap yid yor ypk zap zen zha zho znd zul zun",
]);

/** ISO 3166-1 alpha-2 (upper case). */
export const COUNTRIES = set([
  "AD AE AF AG AI AL AM AN AO AQ AR AS AT AU AW AZ BA BB BD BE BF BG BH BI",
  "BJ BM BN BO BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR",
  "CU CV CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR",
  "FX GA GB GD GE GF GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT",
  "HU ID IE IL IN IO IQ IR IS IT JM JO JP KE KG KH KI KM KN KP KR KW KY KZ",
  "LA LB LC LI LK LR LS LT LU LV LY MA MC MD MG MH MK ML MM MN MO MP MQ MR",
  "MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF",
  "PG PH PK PL PM PN PR PS PT PW PY QA RE RO RU RW SA SB SC SD SE SG SH SI",
  "SJ SK SL SM SN SO SR ST SV SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT",
  "TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT YU ZA ZM ZW",
]);

/** Registered IANA language tags (lower case). */
export const IANA_TAGS = set([
  "art-lojban az-arab az-cyrl az-latn cel-gaulish de-1901 de-1996 de-at-1901",
  "de-at-1996 de-ch-1901 de-ch-1996 de-de-1901 de-de-1996 en-boont en-ge-oed en-scouse",
  "i-ami i-bnn i-default i-enochian i-hak i-klingon i-lux i-mingo",
  "i-navajo i-pwn i-tao i-tay i-tsu no-bok no-nyn sgn-be-fr",
  "sgn-be-nl sgn-br sgn-ch-de sgn-co sgn-de sgn-dk sgn-es sgn-fr",
  "sgn-gb sgn-gr sgn-ie sgn-it sgn-jp sgn-mx sgn-nl sgn-no",
  "sgn-pt sgn-se sgn-us sgn-za sl-rozaj sr-cyrl sr-latn uz-cyrl",
  "uz-latn yi-latn zh-gan zh-guoyu zh-hakka zh-hans zh-hant zh-min",
  "zh-min-nan zh-wuu zh-xiang",
]);
