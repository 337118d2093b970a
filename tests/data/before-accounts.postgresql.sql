--
-- PostgreSQL database dump
--

\restrict mlnX6LBNeFaf45flcfnSLtwsbscFhNTyuF7FXMyixIrEmktUAaukAm2fvc9h5pi

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: actions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.actions (
    match_id character varying(32) NOT NULL,
    seq integer NOT NULL,
    seat character varying(8) NOT NULL,
    kind character varying(8) NOT NULL,
    data text NOT NULL,
    at double precision NOT NULL
);


--
-- Name: analyses; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.analyses (
    match_id character varying(32) NOT NULL,
    games integer NOT NULL,
    depth integer NOT NULL,
    data text NOT NULL,
    at double precision NOT NULL
);


--
-- Name: matches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.matches (
    id character varying(32) NOT NULL,
    created double precision NOT NULL,
    settings text NOT NULL,
    white character varying(32) NOT NULL,
    black character varying(32) NOT NULL,
    seq integer NOT NULL,
    over boolean NOT NULL,
    updated double precision NOT NULL
);


--
-- Name: names; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.names (
    match_id character varying(32) NOT NULL,
    seat character varying(8) NOT NULL,
    name character varying(64) NOT NULL
);


--
-- Name: open_seats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.open_seats (
    match_id character varying(32) NOT NULL,
    seat character varying(8) NOT NULL,
    created double precision NOT NULL
);


--
-- Name: presence; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.presence (
    match_id character varying(32) NOT NULL,
    seat character varying(8) NOT NULL,
    until double precision NOT NULL
);


--
-- Name: seeds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seeds (
    match_id character varying(32) NOT NULL,
    game integer NOT NULL,
    seed character varying(64) NOT NULL,
    commitment character varying(64) NOT NULL
);


--
-- Name: tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tokens (
    hash character varying(64) NOT NULL,
    match_id character varying(32) NOT NULL,
    role character varying(16) NOT NULL
);


--
-- Data for Name: actions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 1, 'white', 'roll', '{"dice":[5,3]}', 1796539832.4569123);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 2, 'white', 'play', '{"play":"24/21 24/19"}', 1796539832.4651403);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 3, 'black', 'roll', '{"dice":[5,6]}', 1796539832.4674098);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 4, 'black', 'play', '{"play":"24/19 24/18"}', 1796539832.5659697);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 5, 'white', 'roll', '{"dice":[3,1]}', 1796539832.5719662);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 6, 'white', 'play', '{"play":"24/23 24/21"}', 1796539832.577229);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 7, 'black', 'roll', '{"dice":[1,5]}', 1796539832.5789442);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 8, 'black', 'play', '{"play":"24/23 24/19"}', 1796539832.5810804);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 9, 'white', 'roll', '{"dice":[5,6]}', 1796539832.5834575);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 10, 'white', 'play', '{"play":"24/19 24/18"}', 1796539832.5887709);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 11, 'black', 'roll', '{"dice":[1,5]}', 1796539832.5902693);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 12, 'black', 'play', '{"play":"24/18"}', 1796539832.592521);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 13, 'white', 'roll', '{"dice":[1,5]}', 1796539832.594388);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 14, 'white', 'play', '{"play":"24/23 24/19"}', 1796539832.5961146);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 15, 'black', 'roll', '{"dice":[4,6]}', 1796539832.5977058);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 16, 'black', 'play', '{"play":"24/18 23/19"}', 1796539832.5999444);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 17, 'white', 'roll', '{"dice":[2,5]}', 1796539832.602105);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 18, 'white', 'play', '{"play":"24/22 24/19"}', 1796539832.604419);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 19, 'black', 'roll', '{"dice":[6,5]}', 1796539832.6060104);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 20, 'black', 'play', '{"play":"18/7*"}', 1796539832.6085594);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 21, 'white', 'roll', '{"dice":[6,6]}', 1796539832.6103814);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 22, 'white', 'play', '{"play":"23/17(2) 22/16 21/15"}', 1796539832.6131244);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 23, 'black', 'roll', '{"dice":[4,6]}', 1796539832.6146882);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 24, 'black', 'play', '{"play":"19/9*"}', 1796539832.6168847);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 25, 'white', 'roll', '{"dice":[5,1]}', 1796539832.6268528);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 26, 'white', 'play', '{"play":"24/23 24/19"}', 1796539832.6291587);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 27, 'black', 'roll', '{"dice":[3,4]}', 1796539832.630636);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 28, 'black', 'play', '{"play":"9/2*"}', 1796539832.6330454);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 29, 'white', 'roll', '{"dice":[3,5]}', 1796539832.6352677);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 30, 'white', 'play', '{"play":"24/21 24/19"}', 1796539832.63731);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 31, 'black', 'roll', '{"dice":[6,3]}', 1796539832.6387787);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 32, 'black', 'play', '{"play":"19/16 7/1*"}', 1796539832.6409867);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 33, 'white', 'roll', '{"dice":[1,2]}', 1796539832.6427786);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 34, 'white', 'play', '{"play":"21/20 21/19"}', 1796539832.6449425);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 35, 'black', 'roll', '{"dice":[6,4]}', 1796539832.646421);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 36, 'black', 'play', '{"play":"19/15 16/10*"}', 1796539832.6487455);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 37, 'white', 'roll', '{"dice":[4,1]}', 1796539832.6513944);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 38, 'white', 'play', '{"play":"20/16 19/18"}', 1796539832.6594167);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 39, 'black', 'roll', '{"dice":[2,5]}', 1796539832.6618333);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 40, 'black', 'play', '{"play":"24/17"}', 1796539832.6644418);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 41, 'white', 'roll', '{"dice":[2,6]}', 1796539832.6665478);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 42, 'white', 'play', '{"play":"19/17 19/13"}', 1796539832.668443);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 43, 'black', 'roll', '{"dice":[6,2]}', 1796539832.679035);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 44, 'black', 'play', '{"play":"24/18 17/15"}', 1796539832.6817367);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 45, 'white', 'roll', '{"dice":[2,6]}', 1796539832.6838782);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 46, 'white', 'play', '{"play":"19/17 19/13"}', 1796539832.686335);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 47, 'black', 'roll', '{"dice":[4,4]}', 1796539832.6877882);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 48, 'black', 'play', '{"play":"24/20(2) 15/11(2)"}', 1796539832.690176);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 49, 'white', 'roll', '{"dice":[5,2]}', 1796539832.6920955);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 50, 'white', 'play', '{"play":"19/17 18/13"}', 1796539832.6940737);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 51, 'black', 'roll', '{"dice":[4,6]}', 1796539832.6954715);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 52, 'black', 'play', '{"play":"24/20 24/18"}', 1796539832.6976702);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 53, 'white', 'roll', '{"dice":[5,1]}', 1796539832.699531);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 54, 'white', 'play', '{"play":"19/13"}', 1796539832.7021153);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 55, 'black', 'roll', '{"dice":[2,2]}', 1796539832.7037227);
INSERT INTO public.actions VALUES ('mKA6oUsKY8KL', 56, 'black', 'play', '{"play":"24/22(3) 18/16"}', 1796539832.7062104);


--
-- Data for Name: analyses; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: matches; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.matches VALUES ('mKA6oUsKY8KL', 1796539832.1097806, '{"length": 1, "games": ["plakoto"], "mother_pin": "double", "prime_limits": true, "prime_in_opponent_start": true, "coach": true}', 'human', 'bot:beginner', 56, true, 1796539832.7062104);


--
-- Data for Name: names; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.names VALUES ('mKA6oUsKY8KL', 'white', 'Νίκος');


--
-- Data for Name: open_seats; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: presence; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.presence VALUES ('mKA6oUsKY8KL', 'white', 1796539832.7084057);


--
-- Data for Name: seeds; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.seeds VALUES ('mKA6oUsKY8KL', 0, 'd1505dfa87b65f3aec2902976cf745b9c5fcc33439cd3c8daa665d776394e62d', 'f6b53466ca860f34df01fcdc19271b5a9aaae7a9405ecccca11f32277f5a26a6');


--
-- Data for Name: tokens; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.tokens VALUES ('eec1a491f15a0691dd9ada0427108f9142fb4349f49a9d7704f68b8f99d9bec5', 'mKA6oUsKY8KL', 'white');
INSERT INTO public.tokens VALUES ('cbcf06ea731fc9b247ba4e260f12699cab3377123a7620743ec7d650fdd784a7', 'mKA6oUsKY8KL', 'spectator');


--
-- Name: actions actions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.actions
    ADD CONSTRAINT actions_pkey PRIMARY KEY (match_id, seq);


--
-- Name: analyses analyses_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.analyses
    ADD CONSTRAINT analyses_pkey PRIMARY KEY (match_id);


--
-- Name: matches matches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.matches
    ADD CONSTRAINT matches_pkey PRIMARY KEY (id);


--
-- Name: names names_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.names
    ADD CONSTRAINT names_pkey PRIMARY KEY (match_id, seat);


--
-- Name: open_seats open_seats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.open_seats
    ADD CONSTRAINT open_seats_pkey PRIMARY KEY (match_id);


--
-- Name: presence presence_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.presence
    ADD CONSTRAINT presence_pkey PRIMARY KEY (match_id, seat);


--
-- Name: seeds seeds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seeds
    ADD CONSTRAINT seeds_pkey PRIMARY KEY (match_id, game);


--
-- Name: tokens tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (hash);


--
-- Name: ix_tokens_match_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_tokens_match_id ON public.tokens USING btree (match_id);


--
-- Name: actions actions_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.actions
    ADD CONSTRAINT actions_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: analyses analyses_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.analyses
    ADD CONSTRAINT analyses_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: names names_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.names
    ADD CONSTRAINT names_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: open_seats open_seats_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.open_seats
    ADD CONSTRAINT open_seats_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: presence presence_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.presence
    ADD CONSTRAINT presence_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: seeds seeds_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seeds
    ADD CONSTRAINT seeds_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: tokens tokens_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- PostgreSQL database dump complete
--

\unrestrict mlnX6LBNeFaf45flcfnSLtwsbscFhNTyuF7FXMyixIrEmktUAaukAm2fvc9h5pi

