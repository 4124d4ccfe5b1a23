Y ACONTECIÓ en los días que gobernaban los jueces, que hubo hambre en la tierra. Y un varón de Beth-lehem de Judá, fué á peregrinar en los campos de Moab, él y su mujer, y dos hijos suyos.
El nombre de aquel varón era Elimelech, y el de su mujer Noemi; y los nombres de sus dos hijos eran, Mahalón y Chelión, Ephrateos de Beth-lehem de Judá. Llegaron pues á los campos de Moab, y asentaron allí.
Y murió Elimelech, marido de Noemi, y quedó ella con sus dos hijos;
Los cuales tomaron para sí mujeres de Moab, el nombre de la una Orpha, y el nombre de la otra Ruth; y habitaron allí unos diez años.
Y murieron también los dos, Mahalón y Chelión, quedando así la mujer desamparada de sus dos hijos y de su marido.
Entonces se levantó con sus nueras, y volvióse de los campos de Moab: porque oyó en el campo de Moab que Jehová había visitado á su pueblo para darles pan.
Salió pues del lugar donde había estado, y con ella sus dos nueras, y comenzaron á caminar para volverse á la tierra de Judá.
Y Noemi dijo á sus dos nueras: Andad, volveos cada una á la casa de su madre: Jehová haga con vosotras misericordia, como la habéis hecho con los muertos y conmigo.
Déos Jehová que halléis descanso, cada una en casa de su marido: besólas luego, y ellas lloraron á voz en grito.
Y dijéronle: Ciertamente nosotras volveremos contigo á tu pueblo.
Y Noemi respondió: Volveos, hijas mías: ¿para qué habéis de ir conmigo? ¿tengo yo más hijos en el vientre, que puedan ser vuestros maridos?
Volveos, hijas mías, é idos; que yo ya soy vieja para ser para varón. Y aunque dijese: Esperanza tengo; y esta noche fuese con varón, y aun pariese hijos;
¿Habíais vosotras de esperarlos hasta que fuesen grandes? ¿habías vosotras de quedaros sin casar por amor de ellos? No, hijas mías; que mayor amargura tengo yo que vosotras, pues la mano de Jehová ha salido contra mí.
Mas ellas alzando otra vez su voz, lloraron: y Orpha besó á su suegra, mas Ruth se quedó con ella.
Y Noemi dijo: He aquí tu cuñada se ha vuelto á su pueblo y á sus dioses; vuélvete tú tras ella.
Y Ruth respondió: No me ruegues que te deje, y me aparte de ti: porque donde quiera que tú fueres, iré yo; y donde quiera que vivieres, viviré. Tu pueblo será mi pueblo, y tu Dios mi Dios.
Donde tú murieres, moriré yo, y allí seré sepultada: así me haga Jehová, y así me dé, que sólo la muerte hará separación entre mí y ti.
Y viendo Noemi que estaba tan resuelta á ir con ella, dejó de hablarle.
Anduvieron pues ellas dos hasta que llegaron á Beth-lehem: y aconteció que entrando en Beth-lehem, toda la ciudad se conmovió por razón de ellas, y decían: ¿No es ésta Noemi?
Y ella les respondía: No me llaméis Noemi, sino llamadme Mara: porque en grande amargura me ha puesto el Todopoderoso.
Yo me fuí llena, mas vacía me ha vuelto Jehová. ¿Por qué me llamaréis Noemi, ya que Jehová ha dado testimonio contra mí, y el Todopoderoso me ha afligido?
Así volvió Noemi y Ruth Moabita su nuera con ella; volvió de los campos de Moab, y llegaron á Beth-lehem en el principio de la siega de las cebadas.
Y TENÍA Noemi un pariente de su marido, varón poderoso y de hecho, de la familia de Elimelech, el cual se llamaba Booz.
Y Ruth la Moabita dijo á Noemi: Ruégote que me dejes ir al campo, y cogeré espigas en pos de aquel á cuyos ojos hallare gracia. Y ella le respondió: Ve, hija mía.
Fué pues, y llegando, espigó en el campo en pos de los segadores: y aconteció por ventura, que la suerte del campo era de Booz, el cual era de la parentela de Elimelech.
Y he aquí que Booz vino de Beth-lehem, y dijo á los segadores: Jehová sea con vosotros. Y ellos respondieron: Jehová te bendiga.
Y Booz dijo á su criado el sobrestante de los segadores: ¿Cúya es esta moza?
Y el criado, sobrestante de los segadores, respondió y dijo: Es la moza de Moab, que volvió con Noemi de los campos de Moab;
Y ha dicho: Ruégote que me dejes coger y juntar tras los segadores entre las gavillas: entró pues, y está desde por la mañana hasta ahora, menos un poco que se detuvo en casa.
Entonces Booz dijo á Ruth: Oye, hija mía, no vayas á espigar á otro campo, ni pases de aquí: y aquí estarás con mis mozas.
Mira bien al campo que segaren, y síguelas: porque yo he mandado á los mozos que no te toquen. Y si tuvieres sed, ve á los vasos, y bebe del agua que sacaren los mozos.
Ella entonces bajando su rostro inclinóse á tierra, y díjole: ¿Por qué he hallado gracia en tus ojos para que tú me reconozcas, siendo yo extranjera?
Y respondiendo Booz, díjole: Por cierto se me ha declarado todo lo que has hecho con tu suegra después de la muerte de tu marido, y que dejando á tu padre y á tu madre y la tierra donde naciste, has venido á pueblo que no conociste antes.
Jehová galardone tu obra, y tu remuneración sea llena por Jehová Dios de Israel, que has venido para cubrirte debajo de sus alas.
Y ella dijo: Señor mío, halle yo gracia delante de tus ojos; porque me has consolado, y porque has hablado al corazón de tu sierva, no siendo yo como una de tus criadas.
Y Booz le dijo á la hora de comer: Allégate aquí, y come del pan, y moja tu bocado en el vinagre. Y sentóse ella junto á los segadores, y él le dió del potaje, y comió hasta que se hartó y le sobró.
Levantóse luego para espigar. Y Booz mandó á sus criados, diciendo: Coja también espigas entre las gavillas, y no la avergoncéis;
Antes echaréis á sabiendas de los manojos, y la dejaréis que coja, y no la reprendáis.
Y espigó en el campo hasta la tarde, y desgranó lo que había cogido, y fué como un epha de cebada.
Y tomólo, y vínose á la ciudad; y su suegra vió lo que había cogido. Sacó también luego lo que le había sobrado después de harta, y dióselo.
Y FUÉ palabra de Jehová segunda vez á Jonás, diciendo:
Levántate, y ve á Nínive, aquella gran ciudad, y publica en ella el pregón que yo te diré.
Y levantóse Jonás, y fué á Nínive, conforme á la palabra de Jehová. Y era Nínive ciudad sobremanera grande, de tres días de camino.
Y comenzó Jonás á entrar por la ciudad, camino de un día, y pregonaba diciendo: De aquí á cuarenta días Nínive será destruída.
Y los hombres de Nínive creyeron á Dios, y pregonaron ayuno, y vistiéronse de sacos desde el mayor de ellos hasta el menor de ellos.
Y llegó el negocio hasta el rey de Nínive, y levantóse de su silla, y echó de sí su vestido, y cubrióse de saco, y se sentó sobre ceniza.
E hizo pregonar y anunciar en Nínive, por mandado del rey y de sus grandes, diciendo: Hombres y animales, bueyes y ovejas, no gusten cosa alguna, no se les dé alimento, ni beban agua:
Y que se cubran de saco los hombres y los animales, y clamen á Dios fuertemente: y conviértase cada uno de su mal camino, de la rapiña que está en sus manos.
¿Quién sabe si se volverá y arrepentirá Dios, y se apartará del furor de su ira, y no pereceremos?
Y vió Dios lo que hicieron, que se convirtieron de su mal camino: y arrepintióse del mal que había dicho les había de hacer, y no lo hizo.
PERO Jonás se apesadumbró en extremo, y enojóse.
Y oró á Jehová, y dijo: Ahora, oh Jehová, ¿no es esto lo que yo decía estando aún en mi tierra? Por eso me precaví huyendo á Tarsis: porque sabía yo que tú eres Dios clemente y piadoso, tardo á enojarte, y de grande misericordia, y que te arrepientes del mal.
Ahora pues, oh Jehová, ruégote que me mates; porque mejor me es la muerte que la vida.
Y Jehová le dijo: ¿Haces tú bien en enojarte tanto?
Y salióse Jonás de la ciudad, y asentó hacia el oriente de la ciudad, é hízose allí una choza, y se sentó debajo de ella á la sombra, hasta ver qué sería de la ciudad.
Y preparó Jehová Dios una calabacera, la cual creció sobre Jonás para que hiciese sombra sobre su cabeza, y le defendiese de su mal: y Jonás se alegró grandemente por la calabacera.
Mas Dios preparó un gusano al venir la mañana del día siguiente, el cual hirió á la calabacera, y secóse.
Y acaeció que al salir el sol, preparó Dios un recio viento solano; y el sol hirió á Jonás en la cabeza, y desmayábase, y se deseaba la muerte, diciendo: Mejor sería para mí la muerte que mi vida.
Entonces dijo Dios á Jonás: ¿Tanto te enojas por la calabacera? Y él respondió: Mucho me enojo, hasta la muerte.
Y dijo Jehová: Tuviste tú lástima de la calabacera, en la cual no trabajaste, ni tú la hiciste crecer; que en espacio de una noche nació, y en espacio de otra noche pereció:
¿Y no tendré yo piedad de Nínive, aquella grande ciudad donde hay más de ciento y veinte mil personas que no conocen su mano derecha ni su mano izquierda, y muchos animales?
PRINCIPIO del evangelio de Jesucristo, Hijo de Dios.
Como está escrito en Isaías el profeta: He aquí yo envío á mi mensajero delante de tu faz, que apareje tu camino delante de ti.
Voz del que clama en el desierto: Aparejad el camino del Señor; enderezad sus veredas.
Bautizaba Juan en el desierto, y predicaba el bautismo del arrepentimiento para remisión de pecados.
Y salía á él toda la provincia de Judea, y los de Jerusalem; y eran todos bautizados por él en el río de Jordán, confesando sus pecados.
Y Juan andaba vestido de pelos de camello, y con un cinto de cuero alrededor de sus lomos; y comía langostas y miel silvestre.
Y predicaba, diciendo: Viene tras mí el que es más poderoso que yo, al cual no soy digno de desatar encorvado la correa de sus zapatos.
Yo á la verdad os he bautizado con agua; mas él os bautizará con Espíritu Santo.
Y aconteció en aquellos días, que Jesús vino de Nazaret de Galilea, y fué bautizado por Juan en el Jordán.
Y luego, subiendo del agua, vió abrirse los cielos, y al Espíritu como paloma, que descendía sobre él.
Y hubounavoz de los cielosque decía: Tú eres mi Hijo amado; en ti tomo contentamiento.
Y luego el Espíritu le impele al desierto.
Y estuvo allí en el desierto cuarenta días, y era tentado de Satanás; y estaba con las fieras; y los ángeles le servían.
Mas después que Juan fué encarcelado, Jesús vino á Galilea predicando el evangelio del reino de Dios,
Y diciendo: El tiempo es cumplido, y el reino de Dios está cerca: arrepentíos, y creed al evangelio.
Y pasando junto á la mar de Galilea, vió á Simón, y á Andrés su hermano, que echaban la red en la mar; porque eran pescadores.
Y les dijo Jesús: Venid en pos de mí, y haré que seáis pescadores de hombres.
Y luego, dejadas sus redes, le siguieron.
Y pasando de allí un poco más adelante, vió á Jacobo, hijo de Zebedeo, y á Juan su hermano, también ellos en el navío, que aderezaban las redes.
Y luego los llamó: y dejando á su padre Zebedeo en el barco con los jornaleros, fueron en pos de él.
Y entraron en Capernaum; y luego los sábados, entrando en la sinagoga, enseñaba.
Y se admiraban de su doctrina; porque les enseñaba como quien tiene potestad, y no como los escribas.
Y había en la sinagoga de ellos un hombre con espíritu inmundo, el cual dió voces,
Diciendo: ¡Ah! ¿qué tienes con nosotros, Jesús Nazareno? ¿Has venido á destruirnos? Sé quién eres, el Santo de Dios.
Y Jesús le riñó, diciendo: Enmudece, y sal de él.
Y el espíritu inmundo, haciéndole pedazos, y clamando á gran voz, salió de él.
Y todos se maravillaron, de tal manera que inquirían entre sí, diciendo: ¿Qué es esto? ¿Qué nueva doctrina es ésta, que con potestad aun á los espíritus inmundos manda, y le obedecen?
Y vino luego su fama por toda la provincia alrededor de Galilea.
Y luego saliendo de la sinagoga, vinieron á casa de Simón y de Andrés, con Jacobo y Juan.
Y la suegra de Simón estaba acostada con calentura; y le hablaron luego de ella.
Entonces llegando él, la tomó de su mano y la levantó; y luego la dejó la calentura, y les servía.
Y cuando fué la tarde, luego que el sol se puso, traían á él todos los que tenían mal, y endemoniados;
Y toda la ciudad se juntó á la puerta.
Y sanó á muchos que estaban enfermos de diversas enfermedades, y echó fuera muchos demonios; y no dejaba decir á los demonios que le conocían.
Y levantándose muy de mañana, aun muy de noche, salió y se fué á un lugar desierto, y allí oraba.
Y le siguió Simón, y los que estaban con él;
Y hallándole, le dicen: Todos te buscan.
Y les dice: Vamos á los lugares vecinos, para que predique también allí; porque para esto he venido.
Y predicaba en las sinagogas de ellos en toda Galilea, y echaba fuera los demonios.
Y un leproso vino á él, rogándole; é hincada la rodilla, le dice: Si quieres, puedes limpiarme.
PABLO y Timoteo, siervos de Jesucristo, á todos los santos en Cristo Jesús que están en Filipos, con los obispos y diáconos:
Graciaseaá vosotros, y paz de Dios nuestro Padre y del Señor Jesucristo.
Doy gracias á mi Dios en toda memoria de vosotros,
Siempre en todas mis oraciones haciendo oración por todos vosotros con gozo,
Por vuestra comunión en el evangelio, desde el primer día hasta ahora:
Estando confiado de esto, que el que comenzó en vosotros la buena obra, la perfeccionará hasta el día de Jesucristo;
Como me es justo sentir esto de todos vosotros, por cuanto os tengo en el corazón; y en mis prisiones, y en la defensa y confirmación del evangelio, sois todos vosotros compañeros de mi gracia.
Porque Dios me es testigo de cómo os amo á todos vosotros en las entrañas de Jesucristo.
Y esto ruego, que vuestro amor abunde aun más y más en ciencia y en todo conocimiento,
Para que discernáis lo mejor; que seáis sinceros y sin ofensa para el día de Cristo;
Llenos de frutos de justicia, que son por Jesucristo, á gloria y loor de Dios.
Y quiero, hermanos, que sepáis que las cosas que mehan sucedido, han redundado más en provecho del evangelio;
De manera que mis prisiones han sido célebres en Cristo en todo el pretorio, y á todos los demás;
Y muchos de los hermanos en el Señor, tomando ánimo con mis prisiones, se atreven mucho más á hablar la palabra sin temor.
Y algunos, á la verdad, predican á Cristo por envidia y porfía; mas algunos también por buena voluntad.
Los unos anuncian á Cristo por contención, no sinceramente, pensando añadir aflicción á mis prisiones;
Pero los otros por amor, sabiendo que soy puesto por la defensa del evangelio.
¿Qué pues? Que no obstante, en todas maneras, ó por pretexto ó por verdad, es anunciado Cristo; y en esto me huelgo, y aun me holgaré.
Porque sé que esto se me tornará á salud, por vuestra oración, y por la suministración del Espíritu de Jesucristo;
Conforme á mi mira y esperanza, que en nada seré confundido; antes bien con toda confianza, como siempre, ahora también será engrandecido Cristo en mi cuerpo, ó por vida, ó por muerte.
Porque para mí el vivir es Cristo, y el morir es ganancia.
Mas si el vivir en la carne, esto me será para fruto de la obra, no sé entonces qué escoger;
Porque de ambas cosas estoy puesto en estrecho, teniendo deseo de ser desatado, y estar con Cristo, lo cual es mucho mejor:
Empero quedar en la carne es más necesario por causa de vosotros.
Y confiado en esto, sé que quedaré, que aun permaneceré con todos vosotros, para provecho vuestro y gozo de la fe;
Para que crezca vuestra gloria de mí en Cristo Jesús por mi venida otra vez á vosotros.
Solamente que converséis como es digno del evangelio de Cristo; para que, ó sea que vaya á veros, ó que esté ausente, oiga de vosotros que estáis firmes en un mismo espíritu, unánimes combatiendo juntamente por la fe del evangelio,
Y en nada intimidados de los que se oponen: que á ellos ciertamente es indicio de perdición, mas á vosotros de salud; y esto de Dios;
Porque á vosotros es concedido por Cristo, no sólo que creáis en él, sino también que padezcáis por él,
Teniendo el mismo conflicto que habéis visto en mí, y ahora oís estar en mí.
POR tanto, si hay alguna consolación en Cristo; si algún refrigerio de amor; si alguna comunión del Espíritu; si algunas entrañas y misericordias,
Cumplid mi gozo; que sintáis lo mismo, teniendo el mismo amor, unánimes, sintiendo una misma cosa.
Nada hagáis por contienda ó por vanagloria; antes bien en humildad, estimándoos inferiores los unos á los otros:
No mirando cada uno á lo suyo propio, sino cada cual también á lo de los otros.
Haya, pues, en vosotros este sentir que hubo también en Cristo Jesús:
El cual, siendo en forma de Dios, no tuvo por usurpación ser igual á Dios:
Sin embargo, se anonadó á sí mismo, tomando forma de siervo, hecho semejante á los hombres;
Y hallado en la condición como hombre, se humilló á sí mismo, hecho obediente hasta la muerte, y muerte de cruz.
Por lo cual Dios también le ensalzó á lo sumo, y dióle un nombre que es sobre todo nombre;
Para que en el nombre de Jesús se doble toda rodilla de los que están en los cielos, y de los que en la tierra, y de los que debajo de la tierra;
JACOBO, siervo de Dios y del Señor Jesucristo, á las doce tribus que están esparcidas, salud.
Hermanos míos, tened por sumo gozo cuando cayereis en diversas tentaciones;
Sabiendo que la prueba de vuestra fe obra paciencia.
Mas tenga la paciencia perfectasuobra, para que seáis perfectos y cabales, sin faltar en alguna cosa.
Y si alguno de vosotros tiene falta de sabiduría, demándela á Dios, el cual da á todos abundantemente, y no zahiere; y le será dada.
Pero pida en fe, no dudando nada: porque el que duda es semejante á la onda de la mar, que es movida del viento, y echada de una parte á otra.
No piense pues el tal hombre que recibirá ninguna cosa del Señor.
El hombre de doblado ánimo es inconstante en todos sus caminos.
El hermano que es de baja suerte, gloríese en su alteza:
Mas el que es rico, en su bajeza; porque él se pasará como la flor de la hierba.
Porque salido el sol con ardor, la hierba se secó, y su flor se cayó, y pereció su hermosa apariencia: así también se marchitará el rico en todos sus caminos.
Bienaventurado el varón que sufre la tentación; porque cuando fuere probado, recibirá la corona de vida, que Dios ha prometido á los que le aman.
Cuando alguno es tentado, no diga que es tentado de Dios: porque Dios no puede ser tentado de los malos, ni él tienta á alguno:
Sino que cada uno es tentado, cuando de su propia concupiscencia es atraído, y cebado.
Y la concupiscencia, después que ha concebido, pare el pecado: y el pecado, siendo cumplido, engendra muerte.
Amados hermanos míos, no erréis.
Toda buena dádiva y todo don perfecto es de lo alto, que desciende del Padre de las luces, en el cual no hay mudanza, ni sombra de variación.
El, de su voluntad nos ha engendrado por la palabra de verdad, para que seamos primicias de sus criaturas.
Por esto, mis amados hermanos, todo hombre sea pronto para oir, tardío para hablar, tardío para airarse:
Porque la ira del hombre no obra la justicia de Dios.
Por lo cual, dejando toda inmundicia y superfluidad de malicia, recibid con mansedumbre la palabra ingerida, la cual puede hacer salvas vuestras almas.
Mas sed hacedores de la palabra, y no tan solamente oidores, engañándoos á vosotros mismos.
Porque si alguno oye la palabra, y no la pone por obra, este tal es semejante al hombre que considera en un espejo su rostro natural.
Porque él se consideró á sí mismo, y se fué, y luego se olvidó qué tal era.
Mas el que hubiere mirado atentamente en la perfecta ley, que es la de la libertad, y perseverado en ella, no siendo oidor olvidadizo, sino hacedor de la obra, este tal será bienaventurado en su hecho.
Si alguno piensa ser religioso entre vosotros, y no refrena su lengua, sino engañando su corazón, la religión del tal es vana.
La religión pura y sin mácula delante de Dios y Padre es esta: Visitar los huérfanos y las viudas en sus tribulaciones, y guardarse sin mancha de este mundo.
HERMANOS míos, no tengáis la fe de nuestro Señor Jesucristo glorioso en acepción de personas.
Porque si en vuestra congregación entra un hombre con anillo de oro, y de preciosa ropa, y también entra un pobre con vestidura vil,
Y tuviereis respeto al que trae la vestidura preciosa, y le dijereis: Siéntate tú aquí en buen lugar: y dijereis al pobre: Estáte tú allí en pie; ó siéntate aquí debajo de mi estrado:
¿No juzgáis en vosotros mismos, y venís á ser jueces de pensamientos malos?
Hermanos míos amados, oid: ¿No ha elegido Dios los pobres de este mundo, ricos en fe, y herederos del reino que ha prometido á los que le aman?
Mas vosotros habéis afrentado al pobre. ¿No os oprimen los ricos, y no son ellos los mismos que os arrastran á los juzgados?
¿No blasfeman ellos el buen nombre que fué invocado sobre vosotros?
Si en verdad cumplís vosotros la ley real, conforme á la Escritura: Amarás á tu prójimo como á ti mismo, bien hacéis:
Mas si hacéis acepción de personas, cometéis pecado, y sois reconvenidos de la ley como transgresores.
Porque cualquiera que hubiere guardado toda la ley, y ofendiere en un punto, es hecho culpado de todos.
Porque el que dijo: No cometerás adulterio, también ha dicho: No matarás. Ahora bien, si no hubieres cometido adulterio, pero hubieres matado, ya eres hecho transgresor de la ley.
Así hablad, y así obrad, como los que habéis de ser juzgados por la ley de libertad.
Porque juicio sin misericordia será hecho con aquel que no hiciere misericordia: y la misericordia se gloría contra el juicio.
